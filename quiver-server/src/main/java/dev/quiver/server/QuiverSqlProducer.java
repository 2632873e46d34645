package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.session.StatementDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.CloseSessionRequest;
import org.apache.arrow.flight.CloseSessionResult;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.SchemaResult;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlProducer;
import org.apache.arrow.flight.sql.NoOpFlightSqlProducer;
import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionClosePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementResult;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementUpdate;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementUpdate;
import org.apache.arrow.flight.sql.impl.FlightSql.DoPutUpdateResult;
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The Flight SQL endpoint of {@code quiver server}: statements, prepared statements with parameters
 * and catalog metadata, each call in the caller's {@link ClientSession}.
 *
 * <p>How a statement travels: {@code CreatePreparedStatement} describes it (its columns, its
 * parameters' types) without running it; a DoPut binds parameter values; {@code GetFlightInfo}
 * returns one endpoint whose ticket holds the statement with its values bound; the DoGet of that
 * ticket runs it and streams its rows ({@link StatementRunner}), so a query lives exactly as long
 * as the client reads it. A statement without rows (SET, CREATE ..., INSERT) runs in its DoPut
 * update call and returns its count.
 */
final class QuiverSqlProducer extends NoOpFlightSqlProducer {
    private final BufferAllocator allocator;
    private final CatalogMetadata catalog;
    private final StatementRunner runner;
    private final SqlInfoBuilder sqlInfo;
    private final Consumer<ClientSession> sessionClosed;

    /** @param sessionClosed ends a session a client closes (its queries are cancelled) */
    QuiverSqlProducer(BufferAllocator allocator, CatalogMetadata catalog, StatementRunner runner, SqlInfoBuilder sqlInfo,
            Consumer<ClientSession> sessionClosed) {
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.runner = requireNonNull(runner, "runner is null");
        this.sqlInfo = requireNonNull(sqlInfo, "sqlInfo is null");
        this.sessionClosed = requireNonNull(sessionClosed, "sessionClosed is null");
    }

    // --- statements

    @Override
    public void createPreparedStatement(ActionCreatePreparedStatementRequest request, CallContext context, StreamListener<Result> listener) {
        try {
            ClientSession client = session(context);
            String sql = request.getQuery();
            PreparedStatement prepared = client.prepare(sql, runner.describe(client, sql));
            StatementDescription description = prepared.description();
            ActionCreatePreparedStatementResult result = ActionCreatePreparedStatementResult.newBuilder()
                    .setPreparedStatementHandle(ByteString.copyFromUtf8(prepared.handle()))
                    .setDatasetSchema(ByteString.copyFrom(MetadataRows.serialize(description.schema())))
                    .setParameterSchema(ByteString.copyFrom(MetadataRows.serialize(new Schema(description.parameters()))))
                    .build();
            listener.onNext(new Result(Any.pack(result).toByteArray()));
            listener.onCompleted();
        } catch (RuntimeException e) {
            listener.onError(ServerErrors.toFlight(e));
        }
    }

    @Override
    public void closePreparedStatement(ActionClosePreparedStatementRequest request, CallContext context, StreamListener<Result> listener) {
        session(context).closePrepared(request.getPreparedStatementHandle().toStringUtf8());
        listener.onCompleted();
    }

    @Override
    public FlightInfo getFlightInfoPreparedStatement(CommandPreparedStatementQuery command, CallContext context, FlightDescriptor descriptor) {
        return call(() -> {
            PreparedStatement prepared = session(context).prepared(command.getPreparedStatementHandle().toStringUtf8());
            return statementInfo(prepared.description(), prepared.boundSql(), descriptor);
        });
    }

    @Override
    public SchemaResult getSchemaPreparedStatement(CommandPreparedStatementQuery command, CallContext context, FlightDescriptor descriptor) {
        return call(() -> new SchemaResult(session(context).prepared(command.getPreparedStatementHandle().toStringUtf8()).description().schema()));
    }

    @Override
    public FlightInfo getFlightInfoStatement(CommandStatementQuery command, CallContext context, FlightDescriptor descriptor) {
        return call(() -> {
            StatementDescription description = withoutParameters(runner.describe(session(context), command.getQuery()));
            return statementInfo(description, command.getQuery(), descriptor);
        });
    }

    @Override
    public SchemaResult getSchemaStatement(CommandStatementQuery command, CallContext context, FlightDescriptor descriptor) {
        return call(() -> new SchemaResult(runner.describe(session(context), command.getQuery()).schema()));
    }

    @Override
    public void getStreamStatement(TicketStatementQuery ticket, CallContext context, ServerStreamListener listener) {
        try {
            runner.stream(session(context), StatementTicket.decode(ticket.getStatementHandle().toByteArray()), listener);
        } catch (RuntimeException e) {
            listener.error(ServerErrors.toFlight(e));
        }
    }

    @Override
    public void closeSession(CloseSessionRequest request, CallContext context, StreamListener<CloseSessionResult> listener) {
        SessionMiddleware middleware = context.getMiddleware(SessionMiddleware.KEY);
        middleware.existingSession().ifPresent(sessionClosed);
        listener.onNext(new CloseSessionResult(CloseSessionResult.Status.CLOSED));
        listener.onCompleted();
    }

    @Override
    public Runnable acceptPutPreparedStatementQuery(CommandPreparedStatementQuery command, CallContext context, FlightStream flightStream,
            StreamListener<PutResult> ackStream) {
        return () -> {
            try {
                PreparedStatement prepared = session(context).prepared(command.getPreparedStatementHandle().toStringUtf8());
                prepared.bind(ParameterValues.read(flightStream));
                ackStream.onCompleted();
            } catch (RuntimeException e) {
                ackStream.onError(ServerErrors.toFlight(e));
            }
        };
    }

    @Override
    public Runnable acceptPutPreparedStatementUpdate(CommandPreparedStatementUpdate command, CallContext context, FlightStream flightStream,
            StreamListener<PutResult> ackStream) {
        return () -> update(ackStream, () -> {
            ClientSession client = session(context);
            PreparedStatement prepared = client.prepared(command.getPreparedStatementHandle().toStringUtf8());
            List<Object> values = ParameterValues.read(flightStream);
            if (!values.isEmpty()) {
                prepared.bind(values);
            }
            return runner.update(client, prepared.boundSql(), prepared.description());
        });
    }

    @Override
    public Runnable acceptPutStatement(CommandStatementUpdate command, CallContext context, FlightStream flightStream,
            StreamListener<PutResult> ackStream) {
        return () -> update(ackStream, () -> {
            ClientSession client = session(context);
            return runner.update(client, command.getQuery(), withoutParameters(runner.describe(client, command.getQuery())));
        });
    }

    // --- catalog metadata

    @Override
    public FlightInfo getFlightInfoSqlInfo(FlightSql.CommandGetSqlInfo request, CallContext context, FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_SQL_INFO_SCHEMA);
    }

    @Override
    public void getStreamSqlInfo(FlightSql.CommandGetSqlInfo command, CallContext context, ServerStreamListener listener) {
        sqlInfo.send(command.getInfoList(), listener);
    }

    @Override
    public FlightInfo getFlightInfoCatalogs(FlightSql.CommandGetCatalogs request, CallContext context, FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_CATALOGS_SCHEMA);
    }

    @Override
    public void getStreamCatalogs(CallContext context, ServerStreamListener listener) {
        MetadataRows.send(Schemas.GET_CATALOGS_SCHEMA, catalog.catalogs(), allocator, listener);
    }

    @Override
    public FlightInfo getFlightInfoSchemas(FlightSql.CommandGetDbSchemas request, CallContext context, FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_SCHEMAS_SCHEMA);
    }

    @Override
    public void getStreamSchemas(FlightSql.CommandGetDbSchemas command, CallContext context, ServerStreamListener listener) {
        MetadataRows.send(Schemas.GET_SCHEMAS_SCHEMA, catalog.schemas(command), allocator, listener);
    }

    @Override
    public FlightInfo getFlightInfoTables(FlightSql.CommandGetTables request, CallContext context, FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, request.getIncludeSchema() ? Schemas.GET_TABLES_SCHEMA : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA);
    }

    @Override
    public void getStreamTables(FlightSql.CommandGetTables command, CallContext context, ServerStreamListener listener) {
        try {
            List<List<Object>> rows = new ArrayList<>();
            for (CatalogMetadata.TableEntry table : catalog.tables(command, session(context).session())) {
                List<Object> row = new ArrayList<>(List.of(CatalogMetadata.CATALOG, table.schema(), table.name(), table.type()));
                table.columns().ifPresent(columns -> row.add(MetadataRows.serialize(columns)));
                rows.add(row);
            }
            MetadataRows.send(command.getIncludeSchema() ? Schemas.GET_TABLES_SCHEMA : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA, rows, allocator, listener);
        } catch (RuntimeException e) {
            listener.error(ServerErrors.toFlight(e));
        }
    }

    @Override
    public FlightInfo getFlightInfoTableTypes(FlightSql.CommandGetTableTypes request, CallContext context, FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_TABLE_TYPES_SCHEMA);
    }

    @Override
    public void getStreamTableTypes(CallContext context, ServerStreamListener listener) {
        MetadataRows.send(Schemas.GET_TABLE_TYPES_SCHEMA, CatalogMetadata.TABLE_TYPES.stream().map(type -> List.<Object>of(type)).toList(),
                allocator, listener);
    }

    // Quiver knows no keys: these answer with no rows, so that tools that ask (DBeaver does) get an empty list

    @Override
    public FlightInfo getFlightInfoPrimaryKeys(FlightSql.CommandGetPrimaryKeys request, CallContext context, FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_PRIMARY_KEYS_SCHEMA);
    }

    @Override
    public void getStreamPrimaryKeys(FlightSql.CommandGetPrimaryKeys command, CallContext context, ServerStreamListener listener) {
        MetadataRows.send(Schemas.GET_PRIMARY_KEYS_SCHEMA, List.of(), allocator, listener);
    }

    @Override
    public FlightInfo getFlightInfoExportedKeys(FlightSql.CommandGetExportedKeys request, CallContext context, FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_EXPORTED_KEYS_SCHEMA);
    }

    @Override
    public void getStreamExportedKeys(FlightSql.CommandGetExportedKeys command, CallContext context, ServerStreamListener listener) {
        MetadataRows.send(Schemas.GET_EXPORTED_KEYS_SCHEMA, List.of(), allocator, listener);
    }

    @Override
    public FlightInfo getFlightInfoImportedKeys(FlightSql.CommandGetImportedKeys request, CallContext context, FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_IMPORTED_KEYS_SCHEMA);
    }

    @Override
    public void getStreamImportedKeys(FlightSql.CommandGetImportedKeys command, CallContext context, ServerStreamListener listener) {
        MetadataRows.send(Schemas.GET_IMPORTED_KEYS_SCHEMA, List.of(), allocator, listener);
    }

    @Override
    public FlightInfo getFlightInfoCrossReference(FlightSql.CommandGetCrossReference request, CallContext context, FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_CROSS_REFERENCE_SCHEMA);
    }

    @Override
    public void getStreamCrossReference(FlightSql.CommandGetCrossReference command, CallContext context, ServerStreamListener listener) {
        MetadataRows.send(Schemas.GET_CROSS_REFERENCE_SCHEMA, List.of(), allocator, listener);
    }

    // --- helpers

    private static ClientSession session(CallContext context) {
        SessionMiddleware middleware = context.getMiddleware(SessionMiddleware.KEY);
        if (middleware == null) {
            throw CallStatus.INTERNAL.withDescription("no session middleware on this call").toRuntimeException();
        }
        return middleware.session(context.peerIdentity());
    }

    /** One endpoint on this server whose ticket is the statement to run ({@link #getStreamStatement}). */
    private static FlightInfo statementInfo(StatementDescription description, String sql, FlightDescriptor descriptor) {
        byte[] statement = new StatementTicket(sql, description.runsQuery()).encode();
        TicketStatementQuery ticket = TicketStatementQuery.newBuilder().setStatementHandle(ByteString.copyFrom(statement)).build();
        return new FlightInfo(description.schema(), descriptor, List.of(new FlightEndpoint(new Ticket(Any.pack(ticket).toByteArray()))), -1, -1);
    }

    /** A metadata call's info: its ticket is the command itself, which {@link FlightSqlProducer#getStream} dispatches back. */
    private static FlightInfo metadataInfo(Message request, FlightDescriptor descriptor, Schema schema) {
        return new FlightInfo(schema, descriptor, List.of(new FlightEndpoint(new Ticket(Any.pack(request).toByteArray()))), -1, -1);
    }

    private static StatementDescription withoutParameters(StatementDescription description) {
        if (!description.parameters().isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "The statement has parameters (?): prepare it and bind their values");
        }
        return description;
    }

    private void update(StreamListener<PutResult> ackStream, Supplier<Long> run) {
        try {
            byte[] result = DoPutUpdateResult.newBuilder().setRecordCount(run.get()).build().toByteArray();
            ArrowBuf buffer = allocator.buffer(result.length);
            buffer.writeBytes(result);
            // Flight copies the metadata into the response and leaves the buffer to its owner
            try (PutResult put = PutResult.metadata(buffer)) {
                ackStream.onNext(put);
            }
            ackStream.onCompleted();
        } catch (RuntimeException e) {
            ackStream.onError(ServerErrors.toFlight(e));
        }
    }

    private static <T> T call(Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            throw ServerErrors.toFlight(e);
        }
    }
}
