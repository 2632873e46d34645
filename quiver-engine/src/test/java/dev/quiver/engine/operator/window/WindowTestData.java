package dev.quiver.engine.operator.window;

import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A DuckDB table {@code t} of rows with NULLs and many ties in every column, and the same rows as
 * Quiver values: the data both sides of the window tests compute over.
 */
final class WindowTestData implements AutoCloseable {
    static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("id", QuiverTypes.INT32, false),
            QuiverTypes.field("p", QuiverTypes.INT32, true),
            QuiverTypes.field("s", QuiverTypes.UTF8, true),
            QuiverTypes.field("o", QuiverTypes.INT32, true),
            QuiverTypes.field("d", QuiverTypes.DATE32, true),
            QuiverTypes.field("x", QuiverTypes.INT64, true),
            QuiverTypes.field("m", QuiverTypes.decimal(15, 2), true),
            QuiverTypes.field("f", QuiverTypes.FLOAT64, true),
            QuiverTypes.field("ts", QuiverTypes.TIMESTAMP, true)));

    private static final String DATA = """
            SELECT CAST(i AS INTEGER) AS id,
              CASE WHEN random() < 0.05 THEN NULL ELSE CAST(floor(random() * 5) AS INTEGER) END AS p,
              CASE WHEN random() < 0.05 THEN NULL ELSE chr(97 + CAST(floor(random() * 4) AS INTEGER)) END AS s,
              CASE WHEN random() < 0.1 THEN NULL ELSE CAST(floor(random() * 40) AS INTEGER) END AS o,
              CASE WHEN random() < 0.1 THEN NULL ELSE DATE '2020-01-01' + CAST(floor(random() * 500) AS INTEGER) END AS d,
              CASE WHEN random() < 0.15 THEN NULL ELSE CAST(floor(random() * 2001 - 1000) AS BIGINT) END AS x,
              CASE WHEN random() < 0.1 THEN NULL ELSE CAST(floor(random() * 400) / 4 AS DECIMAL(15, 2)) END AS m,
              CASE WHEN random() < 0.1 THEN NULL ELSE floor(random() * 64) / 8 END AS f,
              CASE WHEN random() < 0.1 THEN NULL ELSE TIMESTAMP '2021-01-01 00:00:00' + to_hours(CAST(floor(random() * 5000) AS INTEGER)) END AS ts
            FROM range(%d) r(i)
            """;

    private final Connection duckdb;
    private final List<List<Object>> rows;

    WindowTestData(int rowCount, double seed) throws SQLException {
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement statement = duckdb.createStatement()) {
            statement.execute("SELECT setseed(" + seed + ")");
            statement.execute("CREATE TABLE t AS " + DATA.formatted(rowCount));
        }
        rows = query("SELECT * FROM t ORDER BY id");
    }

    List<List<Object>> rows() {
        return rows;
    }

    static ColumnExpr column(String name) {
        for (int i = 0; i < SCHEMA.getFields().size(); i++) {
            Field field = SCHEMA.getFields().get(i);
            if (field.getName().equals(name)) {
                return new ColumnExpr(i, name, field.getType(), field.isNullable());
            }
        }
        throw new IllegalArgumentException("no column " + name);
    }

    /** The rows of {@code sql}, each value as Quiver represents it (dates as epoch days, timestamps as microseconds). */
    List<List<Object>> query(String sql) throws SQLException {
        List<List<Object>> result = new ArrayList<>();
        try (Statement statement = duckdb.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>(columns);
                for (int c = 1; c <= columns; c++) {
                    row.add(quiverValue(rs.getObject(c)));
                }
                result.add(row);
            }
        }
        return result;
    }

    private static Object quiverValue(Object value) {
        if (value instanceof LocalDate date) {
            return (int) date.toEpochDay();
        }
        if (value instanceof java.sql.Date date) {
            return (int) date.toLocalDate().toEpochDay();
        }
        if (value instanceof java.sql.Timestamp timestamp) {
            java.time.LocalDateTime local = timestamp.toLocalDateTime();
            return local.toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000L + local.getNano() / 1000;
        }
        if (value instanceof java.time.LocalDateTime local) {
            return local.toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000L + local.getNano() / 1000;
        }
        if (value instanceof java.math.BigInteger big) {
            return big.longValueExact();
        }
        return value;
    }

    /** Whether a Quiver value and a DuckDB value are the same SQL value (numbers by value, doubles to 1e-9 relative). */
    static boolean same(Object quiver, Object duck) {
        if (quiver == null || duck == null) {
            return quiver == duck;
        }
        if (quiver instanceof Number q && duck instanceof Number d) {
            if (q instanceof Double || d instanceof Double || q instanceof Float || d instanceof Float) {
                double a = q.doubleValue();
                double b = d.doubleValue();
                return a == b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.max(Math.abs(a), Math.abs(b)));
            }
            return new BigDecimal(q.toString()).compareTo(new BigDecimal(d.toString())) == 0;
        }
        return quiver.equals(duck);
    }

    @Override
    public void close() throws SQLException {
        duckdb.close();
    }
}
