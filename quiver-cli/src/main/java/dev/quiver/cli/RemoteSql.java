package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.cli.format.Display;
import dev.quiver.cli.format.OutputFormat;
import dev.quiver.cli.format.ResultFormatter;
import dev.quiver.distributed.protocol.FlightErrors;
import dev.quiver.distributed.protocol.TaskError;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.session.ScriptStatement;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.auth2.BearerCredentialWriter;
import org.apache.arrow.flight.client.ClientCookieMiddleware;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * {@code quiver sql --server HOST:PORT}: runs the statements on a Quiver server (or any Flight SQL
 * server) instead of in this process, and prints each result as {@code quiver sql} does. The
 * statements share one server session (its cookie is kept), so a SET applies to the ones after it.
 */
final class RemoteSql implements AutoCloseable {
    private final BufferAllocator allocator = new RootAllocator();
    private final FlightClient client;
    private final FlightSqlClient sql;
    private final PrintWriter out;
    private final WorkerAddress server;

    private final CallOption[] credentials;

    RemoteSql(WorkerAddress server, ServerClientOptions options, PrintWriter out) {
        this.out = requireNonNull(out, "out is null");
        this.server = requireNonNull(server, "server is null");
        this.client = connect(server, options, allocator);
        this.sql = new FlightSqlClient(client);
        try {
            this.credentials = credentials(options);
        } catch (FlightRuntimeException e) {
            closeQuietly();
            throw toQuiver(e, server);
        } catch (RuntimeException e) {
            closeQuietly();
            throw e;
        }
    }

    private static FlightClient connect(WorkerAddress server, ServerClientOptions options, BufferAllocator allocator) {
        FlightClient.Builder builder = FlightClient.builder(allocator, options.tlsTrust().isPresent()
                ? Location.forGrpcTls(server.host(), server.port()) : Location.forGrpcInsecure(server.host(), server.port()))
                .intercept(new ClientCookieMiddleware.Factory());
        if (options.tlsTrust().isPresent()) {
            try {
                builder.useTls().trustedCertificates(new ByteArrayInputStream(Files.readAllBytes(options.tlsTrust().get())));
            } catch (IOException e) {
                allocator.close();
                throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "Cannot read --tls-trust " + options.tlsTrust().get() + ": " + e.getMessage(), e);
            }
        }
        return builder.build();
    }

    /** Logs in with basic authentication for a bearer token, or presents the token given. */
    private CallOption[] credentials(ServerClientOptions options) {
        if (options.user().isPresent()) {
            String password = options.password().orElseThrow(() -> new QuiverException(ErrorCode.INVALID_ARGUMENT,
                    "--user needs its password: --password-file FILE, or the environment variable QUIVER_PASSWORD"));
            return client.authenticateBasicToken(options.user().get(), password).map(option -> new CallOption[] {option}).orElse(new CallOption[0]);
        }
        return options.token().map(token -> new CallOption[] {new CredentialCallOption(new BearerCredentialWriter(token))}).orElse(new CallOption[0]);
    }

    private void closeQuietly() {
        try {
            close();
        } catch (Exception e) {
            // the failure that brought us here is the one to report
        }
    }

    /** Runs every statement of {@code script} in order, printing each result; the first failure is thrown. */
    void runScript(String script, OutputFormat format, Display display) {
        for (ScriptStatement statement : ScriptStatement.split(script)) {
            try {
                run(statement.text(), format, display);
            } catch (FlightRuntimeException e) {
                throw toQuiver(e, server);
            }
        }
    }

    private void run(String statement, OutputFormat format, Display display) {
        long start = System.nanoTime();
        FlightInfo info = sql.execute(statement, credentials);
        List<Field> fields = info.getSchemaOptional().map(schema -> schema.getFields()).orElse(List.of());
        ResultFormatter.RowWriter writer = format.formatter(display).open(fields.stream().map(Field::getName).toList(),
                fields.stream().map(Field::getType).toList(), out);
        for (var endpoint : info.getEndpoints()) {
            try (FlightStream stream = sql.getStream(endpoint.getTicket(), credentials)) {
                while (stream.next()) {
                    writer.writeRows(Batches.toRows(stream.getRoot()));
                }
            } catch (FlightRuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new QuiverException(ErrorCode.INTERNAL_ERROR, "Reading the result from the server failed: " + e.getMessage(), e);
            }
        }
        writer.finish(Duration.ofNanos(System.nanoTime() - start));
        out.flush();
    }

    /** The server's error as Quiver's (its code travels in the error metadata; the description starts with the code's name). */
    private static QuiverException toQuiver(FlightRuntimeException e, WorkerAddress server) {
        Optional<TaskError> remote = FlightErrors.remoteError(e);
        if (remote.isEmpty() && e.status().code() == FlightStatusCode.UNAUTHENTICATED) {
            String description = e.status().description() == null ? "" : e.status().description();
            String prefix = ErrorCode.UNAUTHENTICATED.name() + ": ";
            return new QuiverException(ErrorCode.UNAUTHENTICATED, "The server at " + server + " refused the call: "
                    + (description.startsWith(prefix) ? description.substring(prefix.length()) : description), e);
        }
        if (remote.isEmpty() && FlightErrors.isUnavailable(e)) {
            return new QuiverException(ErrorCode.WORKER_UNREACHABLE, "Cannot reach the Quiver server at " + server + " (is quiver server running there?): "
                    + FlightErrors.describe(e), e);
        }
        if (remote.isEmpty()) {
            return new QuiverException(ErrorCode.REMOTE_TASK_FAILED, "The server at " + server + " answered " + FlightErrors.describe(e), e);
        }
        String message = remote.get().message();
        String prefix = remote.get().code().name() + ": ";
        return new QuiverException(remote.get().code(), message.startsWith(prefix) ? message.substring(prefix.length()) : message, e);
    }

    @Override
    public void close() throws InterruptedException {
        try (BufferAllocator closedLast = allocator; FlightSqlClient closedFirst = sql) {
            // the client's streams are closed; the client goes before its allocator
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "Closing the connection to the server failed: " + e.getMessage(), e);
        }
    }
}
