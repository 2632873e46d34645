package dev.quiver.bench;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * An in-process DuckDB database holding the tables of a Quiver {@link Catalog}, loaded from the
 * catalog's own scans (so both engines query identical data), and a way to run SQL on it with
 * results in Quiver's Java value representation ({@link QuiverTypes}): DECIMAL as BigDecimal,
 * DATE as Integer days, integers as Long or Integer, so that they compare directly with
 * {@code QueryResult} rows.
 *
 * <p>Tables are loaded with DuckDB's Appender, one appender per scan partition, partitions in
 * parallel. DuckDB runs with {@code threads} threads.
 */
public final class DuckDbTpch implements AutoCloseable {
    private static final Pattern LINE_COMMENT = Pattern.compile("--[^\\n]*");

    private final DuckDBConnection connection;

    private DuckDbTpch(DuckDBConnection connection) {
        this.connection = requireNonNull(connection, "connection is null");
    }

    /** A DuckDB result: its columns typed as Quiver would type them, and its rows as Quiver Java values. */
    public record Result(Schema schema, List<List<Object>> rows) {
        public Result {
            requireNonNull(schema, "schema is null");
            rows = List.copyOf(requireNonNull(rows, "rows is null"));
        }
    }

    /** An empty in-memory database running with {@code threads} threads. */
    public static DuckDbTpch empty(int threads) {
        DuckDbTpch database;
        try {
            database = new DuckDbTpch((DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:"));
        } catch (SQLException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "Starting DuckDB failed: " + e.getMessage(), e);
        }
        try {
            database.execute("SET threads = " + threads);
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
        return database;
    }

    /** Creates a database with every table of {@code catalog}, read through scans of {@code threads} partitions. */
    public static DuckDbTpch load(Catalog catalog, int threads) {
        return load(catalog, threads, catalog.tableNames());
    }

    /** Creates a database with the named tables of {@code catalog}, read through scans of {@code threads} partitions. */
    public static DuckDbTpch load(Catalog catalog, int threads, Collection<String> tables) {
        DuckDbTpch database = empty(threads);
        try (BufferAllocator allocator = new RootAllocator();
                QuiverExecutor executor = new QuiverExecutor("duckdb-load");
                TaskContext context = new TaskContext("duckdb-load", allocator, MemoryPool.unlimited(), executor,
                        new ExecutionConfig(ExecutionConfig.DEFAULT_BATCH_SIZE, threads))) {
            for (String name : tables) {
                database.loadTable(catalog.table(name).orElseThrow(
                        () -> new QuiverException(ErrorCode.TABLE_NOT_FOUND, "No table " + name + " to load into DuckDB")), context, threads);
            }
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
        return database;
    }

    public Connection connection() {
        return connection;
    }

    private void loadTable(TableSource table, TaskContext context, int threads) {
        String columns = table.schema().getFields().stream()
                .map(field -> field.getName() + " " + sqlType(field.getType()) + (field.isNullable() ? "" : " NOT NULL"))
                .collect(Collectors.joining(", "));
        execute("CREATE TABLE " + table.name() + " (" + columns + ")");
        ExecutionPlan scan = table.scan(ScanRequest.all(threads));
        List<CompletableFuture<Void>> parts = new ArrayList<>();
        for (int p = 0; p < scan.outputPartitioning().partitionCount(); p++) {
            int partition = p;
            CompletableFuture<Void> done = new CompletableFuture<>();
            context.executor().execute("load-" + table.name() + "-" + p, () -> {
                try {
                    appendPartition(table.name(), scan, partition, context);
                    done.complete(null);
                } catch (Throwable t) {
                    done.completeExceptionally(t);
                }
            });
            parts.add(done);
        }
        try {
            CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "Loading " + table.name() + " into DuckDB failed: " + e.getCause(), e.getCause());
        }
    }

    private void appendPartition(String table, ExecutionPlan scan, int partition, TaskContext context) throws SQLException {
        try (DuckDBConnection own = (DuckDBConnection) connection.duplicate();
                DuckDBAppender appender = own.createAppender(DuckDBConnection.DEFAULT_SCHEMA, table);
                BatchStream stream = scan.execute(partition, context)) {
            for (VectorSchemaRoot next = stream.next(); next != null; next = stream.next()) {
                try (VectorSchemaRoot batch = next) {
                    append(appender, batch);
                }
            }
            appender.flush();
        }
    }

    private static void append(DuckDBAppender appender, VectorSchemaRoot batch) throws SQLException {
        List<FieldVector> vectors = batch.getFieldVectors();
        for (int row = 0; row < batch.getRowCount(); row++) {
            appender.beginRow();
            for (FieldVector vector : vectors) {
                if (vector.isNull(row)) {
                    appender.appendNull();
                } else if (vector instanceof BigIntVector v) {
                    appender.append(v.get(row));
                } else if (vector instanceof IntVector v) {
                    appender.append(v.get(row));
                } else if (vector instanceof DecimalVector v && v.getPrecision() <= 18) {
                    // the unscaled value fits the low 64 bits of the 128-bit little-endian decimal
                    appender.appendDecimal(v.getDataBuffer().getLong((long) row * DecimalVector.TYPE_WIDTH));
                } else if (vector instanceof DecimalVector v) {
                    appender.append(v.getObject(row));
                } else if (vector instanceof DateDayVector v) {
                    appender.appendEpochDays(v.get(row));
                } else if (vector instanceof VarCharVector v) {
                    appender.append(new String(v.get(row), StandardCharsets.UTF_8));
                } else {
                    throw new QuiverException(ErrorCode.NOT_SUPPORTED, "Cannot load a " + vector.getField().getType() + " column into DuckDB");
                }
            }
            appender.endRow();
        }
    }

    private static String sqlType(ArrowType type) {
        return QuiverTypes.sqlName(type);
    }

    /**
     * Runs the statements of {@code script} ({@code ;}-separated, {@code --} comments allowed) and
     * returns the result of the last one.
     */
    public Result query(String script) {
        List<String> statements = statements(script);
        for (int i = 0; i < statements.size() - 1; i++) {
            execute(statements.get(i));
        }
        // a failing execute() closes its Statement: use a fresh one per statement
        try (Statement statement = connection.createStatement();
                ResultSet results = statement.executeQuery(statements.get(statements.size() - 1))) {
            return read(results);
        } catch (SQLException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "DuckDB failed: " + e.getMessage(), e);
        }
    }

    /** Runs one statement that returns no rows. */
    public void execute(String sql) {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "DuckDB failed on " + sql + ": " + e.getMessage(), e);
        }
    }

    static List<String> statements(String script) {
        List<String> statements = new ArrayList<>();
        for (String statement : LINE_COMMENT.matcher(script).replaceAll("").split(";")) {
            if (!statement.isBlank()) {
                statements.add(statement.strip());
            }
        }
        if (statements.isEmpty()) {
            throw new QuiverException(ErrorCode.SYNTAX_ERROR, "The script holds no statement");
        }
        return statements;
    }

    private static Result read(ResultSet results) throws SQLException {
        ResultSetMetaData meta = results.getMetaData();
        List<Field> fields = new ArrayList<>();
        for (int c = 1; c <= meta.getColumnCount(); c++) {
            fields.add(QuiverTypes.field(meta.getColumnLabel(c), quiverType(meta, c), true));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (results.next()) {
            List<Object> row = new ArrayList<>(fields.size());
            for (int c = 1; c <= fields.size(); c++) {
                row.add(quiverValue(results.getObject(c)));
            }
            rows.add(row);
        }
        return new Result(new Schema(fields), rows);
    }

    private static ArrowType quiverType(ResultSetMetaData meta, int column) throws SQLException {
        return switch (meta.getColumnType(column)) {
            case Types.DECIMAL, Types.NUMERIC -> QuiverTypes.decimal(meta.getPrecision(column), meta.getScale(column));
            case Types.INTEGER, Types.SMALLINT, Types.TINYINT -> QuiverTypes.INT32;
            case Types.BIGINT -> QuiverTypes.INT64;
            case Types.DOUBLE, Types.FLOAT, Types.REAL -> QuiverTypes.FLOAT64;
            case Types.DATE -> QuiverTypes.DATE32;
            case Types.BOOLEAN, Types.BIT -> QuiverTypes.BOOLEAN;
            case Types.VARCHAR, Types.CHAR, Types.LONGVARCHAR, Types.NVARCHAR -> QuiverTypes.UTF8;
            // HUGEINT (DuckDB's SUM of integers) and anything else numeric
            default -> "HUGEINT".equalsIgnoreCase(meta.getColumnTypeName(column)) ? QuiverTypes.INT64
                    : QuiverTypes.UTF8;
        };
    }

    private static Object quiverValue(Object value) {
        if (value instanceof LocalDate date) {
            return (int) date.toEpochDay();
        }
        if (value instanceof java.sql.Date date) {
            return (int) date.toLocalDate().toEpochDay();
        }
        if (value instanceof BigInteger big) {
            return big.longValueExact();
        }
        if (value instanceof Short || value instanceof Byte) {
            return ((Number) value).intValue();
        }
        if (value instanceof Float f) {
            return f.doubleValue();
        }
        if (value instanceof BigDecimal || value instanceof Long || value instanceof Integer || value instanceof Double
                || value instanceof String || value instanceof Boolean || value == null) {
            return value;
        }
        return value.toString();
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "Closing DuckDB failed: " + e.getMessage(), e);
        }
    }
}
