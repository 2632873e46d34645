package dev.quiver.server;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A JDBC result read whole, as the session tests' {@code ResultComparator} compares results: the
 * columns typed from {@link ResultSetMetaData} as Arrow types, the values as Quiver's rows hold them
 * (decimals as BigDecimal, dates as days since the epoch).
 */
record JdbcResults(Schema schema, List<List<Object>> rows) {
    static JdbcResults read(ResultSet results) throws SQLException {
        ResultSetMetaData metadata = results.getMetaData();
        List<Field> fields = new ArrayList<>();
        for (int c = 1; c <= metadata.getColumnCount(); c++) {
            fields.add(new Field(metadata.getColumnLabel(c), FieldType.nullable(arrowType(metadata, c)), List.of()));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (results.next()) {
            List<Object> row = new ArrayList<>();
            for (int c = 1; c <= fields.size(); c++) {
                row.add(value(results, c, fields.get(c - 1).getType()));
            }
            rows.add(row);
        }
        return new JdbcResults(new Schema(fields), rows);
    }

    private static ArrowType arrowType(ResultSetMetaData metadata, int column) throws SQLException {
        return switch (metadata.getColumnType(column)) {
            case Types.DECIMAL, Types.NUMERIC -> new ArrowType.Decimal(metadata.getPrecision(column), metadata.getScale(column), 128);
            case Types.DOUBLE, Types.FLOAT, Types.REAL -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case Types.BIGINT -> new ArrowType.Int(64, true);
            case Types.INTEGER, Types.SMALLINT, Types.TINYINT -> new ArrowType.Int(32, true);
            case Types.DATE -> new ArrowType.Date(DateUnit.DAY);
            case Types.BOOLEAN, Types.BIT -> ArrowType.Bool.INSTANCE;
            default -> ArrowType.Utf8.INSTANCE;
        };
    }

    private static Object value(ResultSet results, int column, ArrowType type) throws SQLException {
        Object value;
        if (type instanceof ArrowType.Decimal) {
            value = results.getBigDecimal(column);
        } else if (type instanceof ArrowType.FloatingPoint) {
            value = results.getDouble(column);
        } else if (type instanceof ArrowType.Int) {
            value = results.getLong(column);
        } else if (type instanceof ArrowType.Date) {
            java.sql.Date date = results.getDate(column);
            value = date == null ? null : date.toLocalDate().toEpochDay();
        } else if (type instanceof ArrowType.Bool) {
            value = results.getBoolean(column);
        } else {
            value = results.getString(column);
        }
        return results.wasNull() ? null : value;
    }
}
