package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.StatementDescription;
import java.util.Optional;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Runs the statements clients send, in their sessions: a statement with rows streams them to a
 * DoGet ({@link ResultStream}), an update returns its count. A statement that runs a query is
 * registered ({@link RunningQueries}: SHOW QUERIES, KILL QUERY) and waits for {@link Admission}
 * first; it runs in the pool its admission granted.
 */
final class StatementRunner {
    private final BufferAllocator allocator;
    private final QuiverExecutor executor;
    private final Admission admission;
    private final RunningQueries queries;

    StatementRunner(BufferAllocator allocator, QuiverExecutor executor, Admission admission, RunningQueries queries) {
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.admission = requireNonNull(admission, "admission is null");
        this.queries = requireNonNull(queries, "queries is null");
    }

    /** What {@code sql} returns and its parameters, without running it. */
    StatementDescription describe(ClientSession client, String sql) {
        Optional<ServerStatements.Statement> server = ServerStatements.parse(sql);
        return server.isPresent() ? ServerStatements.describe(server.get()) : client.session().describe(sql);
    }

    /**
     * Streams the ticket's statement to {@code listener} from a thread of the server's, returning at
     * once: the DoGet must return for Flight to tell the stream when the client can take more, or
     * that it went away.
     */
    void stream(ClientSession client, StatementTicket ticket, ServerStreamListener listener) {
        Optional<ServerStatements.Statement> server = ServerStatements.parse(ticket.sql());
        if (server.isPresent()) {
            sendServerRows(client, server.get(), listener);
            return;
        }
        if (!ticket.runsQuery()) {
            QueryHandle handle = client.session().execute(ticket.sql());
            ClientReadiness readiness = new ClientReadiness(listener, handle::cancel);
            startThread("result-" + handle.queryId(), new ResultStream(handle, listener, allocator, readiness), handle::close);
            return;
        }
        ServerQuery query = queries.register(client, ticket.sql(), admission::wake);
        ClientReadiness readiness = new ClientReadiness(listener, query::cancel);
        startThread(query.id(), () -> runAdmitted(query, listener, readiness), () -> queries.remove(query));
    }

    private void runAdmitted(ServerQuery query, ServerStreamListener listener, ClientReadiness readiness) {
        try (Admission.Grant grant = admission.admit(query.id(), query::isCancelled)) {
            query.admitted(grant.pool());
            QueryHandle handle;
            try {
                handle = query.client().session().execute(query.sql(), grant.pool());
            } catch (RuntimeException e) {
                if (!listener.isCancelled()) {
                    listener.error(ServerErrors.toFlight(e));
                }
                return;
            }
            query.started(handle);
            // closes the handle before the grant gives its memory back
            new ResultStream(handle, listener, allocator, readiness).run();
        } catch (RuntimeException e) {
            if (!listener.isCancelled()) {
                listener.error(ServerErrors.toFlight(e));
            }
        } finally {
            queries.remove(query);
        }
    }

    /**
     * Runs {@code sql} to its end: the rows an INSERT, CREATE TABLE AS or COPY wrote, 0 for a
     * statement without a count (SET, CREATE VIEW), the rows of a query run as an update.
     */
    long update(ClientSession client, String sql, StatementDescription description) {
        Optional<ServerStatements.Statement> server = ServerStatements.parse(sql);
        if (server.isPresent()) {
            if (server.get() instanceof ServerStatements.KillQuery kill) {
                queries.kill(kill.queryId(), client.user());
                return 1;
            }
            return queries.rows().size();
        }
        if (!description.runsQuery()) {
            try (QueryHandle handle = client.session().execute(sql)) {
                return drain(handle, description);
            }
        }
        ServerQuery query = queries.register(client, sql, admission::wake);
        try (Admission.Grant grant = admission.admit(query.id(), query::isCancelled)) {
            query.admitted(grant.pool());
            try (QueryHandle handle = client.session().execute(sql, grant.pool())) {
                query.started(handle);
                return drain(handle, description);
            }
        } finally {
            queries.remove(query);
        }
    }

    private void sendServerRows(ClientSession client, ServerStatements.Statement statement, ServerStreamListener listener) {
        if (statement instanceof ServerStatements.KillQuery kill) {
            queries.kill(kill.queryId(), client.user());
            try (VectorSchemaRoot empty = VectorSchemaRoot.create(ServerStatements.describe(statement).schema(), allocator)) {
                listener.start(empty);
            }
            listener.completed();
            return;
        }
        try (VectorSchemaRoot rows = Batches.fromRows(ServerStatements.QUERIES, queries.rows(), allocator)) {
            listener.start(rows);
            listener.putNext();
        }
        listener.completed();
    }

    /** Runs {@code body} on a named thread of the server's; {@code onRefused} releases what it would have released. */
    private void startThread(String name, Runnable body, Runnable onRefused) {
        try {
            executor.execute(name, body);
        } catch (RuntimeException e) {
            onRefused.run();
            throw e;
        }
    }

    private static long drain(QueryHandle handle, StatementDescription description) {
        // a write's one row is its count; the rows of anything else are counted
        boolean counts = description.result() == StatementDescription.Result.UPDATE && description.runsQuery();
        long total = 0;
        BatchStream batches = handle.stream();
        VectorSchemaRoot batch;
        while ((batch = batches.next()) != null) {
            try (VectorSchemaRoot owned = batch) {
                total += counts ? sum((BigIntVector) owned.getVector(0)) : owned.getRowCount();
            }
        }
        return handle.schema().getFields().isEmpty() ? 0 : total;
    }

    private static long sum(BigIntVector counts) {
        long sum = 0;
        for (int i = 0; i < counts.getValueCount(); i++) {
            sum += counts.isNull(i) ? 0 : counts.get(i);
        }
        return sum;
    }
}
