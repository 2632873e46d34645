package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.coordinator.RetryingQuery;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QueryWarning;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanDisplay;
import dev.quiver.engine.execution.TaskContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One running statement: its output schema, its physical plan, and one stream of result batches.
 *
 * <p>The handle owns the query's {@link TaskContext} and its child allocator. {@link #close()}
 * stops the query if it still runs, releases everything it holds and fails with
 * {@code INTERNAL_ERROR} if Arrow memory of the query leaked. Batches taken from {@link #stream()}
 * must be closed before the handle.
 *
 * <p>A distributed query (a session with workers) also has {@link #finalPlan()}, which completes
 * once every task of the query is terminal and its metrics are in, and {@link #events()}: stage
 * closed, sized and dispatched, task state changes.
 */
public final class QueryHandle implements AutoCloseable {
    /** The metadata key of an {@code EXPLAIN} result's {@code plan} column naming the plan's format ({@link #explainFormat()}). */
    public static final String EXPLAIN_FORMAT_KEY = "quiver.explain_format";

    private final String queryId;
    private final List<String> columnNames;
    private final Schema schema;
    private final ExecutionPlan plan;
    private final TaskContext context;
    private final BufferAllocator allocator;
    private final Function<TaskContext, BatchStream> streamFactory;
    private final long startNanos;
    private final Optional<RetryingQuery> distributed;
    private ErrorTranslatingBatchStream stream;
    private boolean closed;

    QueryHandle(String queryId, List<String> columnNames, Schema schema, ExecutionPlan plan, TaskContext context,
            BufferAllocator allocator, Function<TaskContext, BatchStream> streamFactory, long startNanos) {
        this(queryId, columnNames, schema, plan, context, allocator, streamFactory, startNanos, Optional.empty());
    }

    QueryHandle(String queryId, List<String> columnNames, Schema schema, ExecutionPlan plan, TaskContext context,
            BufferAllocator allocator, Function<TaskContext, BatchStream> streamFactory, long startNanos, Optional<RetryingQuery> distributed) {
        this.distributed = requireNonNull(distributed, "distributed is null");
        this.queryId = requireNonNull(queryId, "queryId is null");
        this.columnNames = List.copyOf(requireNonNull(columnNames, "columnNames is null"));
        this.schema = requireNonNull(schema, "schema is null");
        this.plan = requireNonNull(plan, "plan is null");
        this.context = requireNonNull(context, "context is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.streamFactory = requireNonNull(streamFactory, "streamFactory is null");
        this.startNanos = startNanos;
    }

    /** An id for this query within its session, e.g. {@code q12}. */
    public String queryId() {
        return queryId;
    }

    public List<String> columnNames() {
        return columnNames;
    }

    public Schema schema() {
        return schema;
    }

    /**
     * For an {@code EXPLAIN}, the format its one value is in: {@code DOT} is a Graphviz graph that a
     * client prints as it is (e.g. into {@code dot -Tsvg}). Empty for every other statement.
     */
    public Optional<SessionSettings.ExplainFormat> explainFormat() {
        if (schema.getFields().size() != 1) {
            return Optional.empty();
        }
        String format = schema.getFields().get(0).getMetadata().get(EXPLAIN_FORMAT_KEY);
        return format == null ? Optional.empty() : Optional.of(SessionSettings.ExplainFormat.valueOf(format));
    }

    /** The physical plan; after the stream ended its nodes carry the run's metrics. */
    public ExecutionPlan plan() {
        return plan;
    }

    /**
     * The result batches; may be called once. Each batch belongs to the caller, who closes it.
     * Failures of the query are thrown from {@link BatchStream#next()}.
     */
    public synchronized BatchStream stream() {
        if (closed) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Query " + queryId + " is closed");
        }
        if (stream != null) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "The results of query " + queryId + " can be streamed only once");
        }
        try {
            stream = new ErrorTranslatingBatchStream(streamFactory.apply(context), queryId);
        } catch (RuntimeException | StackOverflowError e) {
            throw ErrorTranslatingBatchStream.translate(e, "Query " + queryId);
        }
        return stream;
    }

    /**
     * Asks the query to stop; the stream's next call fails with {@code QUERY_CANCELLED}. A
     * distributed query also ends every task (CANCELLED, or SKIPPED if it never ran).
     */
    public void cancel() {
        distributed.ifPresent(query -> query.cancel("cancelled by the user"));
        context.cancel("cancelled by the user");
    }

    /** Whether this query runs on workers. */
    public boolean isDistributed() {
        return distributed.isPresent();
    }

    /**
     * The distributed plan with every task's final report (state, worker, metrics). Completes once
     * every task of the query is terminal — after the result stream ended, failed or was closed, or
     * after {@link #cancel()} — and never waits for a task that will not run.
     *
     * @throws QuiverException INVALID_ARGUMENT for a query that ran on one node
     */
    public CompletableFuture<FinalPlan> finalPlan() {
        return distributed().finalPlan();
    }

    /**
     * What the run tells its user besides its rows, e.g. how many rows a scan with
     * {@code ignore_errors} skipped, a worker left out or a retry of a distributed query; known once the result stream ended, failed or was closed. A
     * distributed query whose scans may warn waits here for its tasks' final reports (which come
     * right after the end), since they carry what the scans counted on the workers.
     *
     * @throws QuiverException INVALID_ARGUMENT while the stream has not ended
     */
    public List<QueryWarning> warnings() {
        ErrorTranslatingBatchStream results;
        synchronized (this) {
            results = stream;
        }
        if (results == null || !results.ended()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "The warnings of query " + queryId + " are known once its result stream ended");
        }
        if (distributed.isEmpty()) {
            return QueryWarnings.of(plan);
        }
        List<QueryWarning> cluster = QueryWarnings.ofEvents(distributed.get().events());
        if (!QueryWarnings.mayWarn(plan)) {
            return cluster;
        }
        List<QueryWarning> all = new ArrayList<>(cluster);
        all.addAll(QueryWarnings.of(distributed.get().finalPlan().join()));
        return List.copyOf(all);
    }

    /** The events of a distributed query so far, in order (empty for a query on one node). */
    public List<QueryEvent> events() {
        return distributed.map(RetryingQuery::events).orElse(List.of());
    }

    /** Each dispatched task's last known state, for progress display (empty for a query on one node). */
    public Map<TaskId, TaskState> taskStates() {
        return distributed.map(RetryingQuery::taskStates).orElse(Map.of());
    }

    private RetryingQuery distributed() {
        return distributed.orElseThrow(() -> new QuiverException(ErrorCode.INVALID_ARGUMENT,
                "Query " + queryId + " ran on one node; only a distributed query (a session with workers) has a final distributed plan"));
    }

    /** Time since the statement was submitted. */
    public Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    /** Reads every row, then closes this handle. */
    public QueryResult collect() {
        try (QueryHandle ignored = this) {
            List<List<Object>> rows = new ArrayList<>();
            BatchStream results = stream();
            VectorSchemaRoot batch;
            while ((batch = results.next()) != null) {
                try (VectorSchemaRoot owned = batch) {
                    rows.addAll(Batches.toRows(owned));
                }
            }
            results.close();
            return new QueryResult(columnNames, schema, rows, PlanDisplay.indent(plan), elapsed(), warnings());
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        try {
            if (stream != null) {
                stream.close();
            }
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            distributed.ifPresent(RetryingQuery::close);
        } catch (RuntimeException e) {
            failure = failure == null ? e : failure;
        }
        try {
            context.close();
        } catch (RuntimeException e) {
            failure = failure == null ? e : failure;
        }
        long leaked = allocator.getAllocatedMemory();
        try {
            allocator.close();
        } catch (RuntimeException e) {
            if (failure == null) {
                failure = leaked == 0 ? e : new QuiverException(ErrorCode.INTERNAL_ERROR,
                        "Query " + queryId + " leaked " + leaked + " bytes of Arrow memory", e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
