package dev.quiver.session;

import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/** DuckDB in-process holding the same tables as a {@link MemoryCatalog}: the oracle for SQL tests. */
final class DuckDbOracle implements AutoCloseable {
    private final Connection connection;

    DuckDbOracle(MemoryCatalog catalog) throws SQLException {
        connection = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement statement = connection.createStatement()) {
            // Quiver (like PostgreSQL) sorts NULL as the largest value: last ascending, first descending.
            statement.execute("SET default_null_order = 'nulls_last_on_asc_first_on_desc'");
        }
        for (String name : catalog.tableNames()) {
            load(catalog.memoryTable(name));
        }
    }

    private void load(MemoryCatalog.MemoryTable table) throws SQLException {
        List<Field> fields = table.schema().getFields();
        String columns = fields.stream().map(f -> f.getName() + " " + QuiverTypes.sqlName(f.getType())).collect(Collectors.joining(", "));
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + table.name() + " (" + columns + ")");
        }
        String marks = fields.stream().map(f -> "?").collect(Collectors.joining(", "));
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table.name() + " VALUES (" + marks + ")")) {
            for (List<Object> row : table.rows()) {
                for (int i = 0; i < fields.size(); i++) {
                    Object value = row.get(i);
                    if (value != null && fields.get(i).getType() instanceof ArrowType.Date) {
                        value = java.sql.Date.valueOf(LocalDate.ofEpochDay((Integer) value));
                    } else if (value instanceof Long micros && fields.get(i).getType() instanceof ArrowType.Timestamp) {
                        value = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000), (int) Math.floorMod(micros, 1_000_000) * 1000, ZoneOffset.UTC);
                    }
                    insert.setObject(i + 1, value);
                }
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /** The connection, for what {@link #query} does not give (column names, metadata). */
    Connection connection() {
        return connection;
    }

    /** The rows of {@code sql}, each value normalised by {@link #normalize}. */
    List<List<Object>> query(String sql) throws SQLException {
        return normalize(queryValues(sql));
    }

    /**
     * The rows of {@code sql} with Quiver's representation of dates (Integer days since the epoch)
     * and timestamps (Long microseconds), other values as the driver returns them.
     */
    List<List<Object>> queryValues(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    Object value = result.getObject(i);
                    if (value instanceof java.sql.Date date) {
                        value = (int) date.toLocalDate().toEpochDay();
                    } else if (value instanceof LocalDate date) {
                        value = (int) date.toEpochDay();
                    } else if (value instanceof java.sql.Timestamp timestamp) {
                        value = micros(timestamp.toLocalDateTime());
                    } else if (value instanceof LocalDateTime timestamp) {
                        value = micros(timestamp);
                    }
                    row.add(value);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static long micros(LocalDateTime timestamp) {
        return timestamp.toEpochSecond(ZoneOffset.UTC) * 1_000_000 + timestamp.getNano() / 1_000;
    }

    /**
     * One representation per value, so Quiver's and DuckDB's results compare: integers as Long,
     * other numbers as BigDecimal rounded to 4 places without trailing zeros (NaN and the infinities
     * stay doubles).
     */
    static Object normalize(Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof java.math.BigInteger big) {
            return big.longValueExact();
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.setScale(4, RoundingMode.HALF_UP).stripTrailingZeros();
        }
        if ((value instanceof Double || value instanceof Float) && !Double.isFinite(((Number) value).doubleValue())) {
            return ((Number) value).doubleValue();
        }
        if (value instanceof Double || value instanceof Float) {
            return BigDecimal.valueOf(((Number) value).doubleValue()).setScale(4, RoundingMode.HALF_UP).stripTrailingZeros();
        }
        return value;
    }

    static List<List<Object>> normalize(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> normalized = new ArrayList<>();
            row.forEach(v -> normalized.add(normalize(v)));
            out.add(normalized);
        }
        return out;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
