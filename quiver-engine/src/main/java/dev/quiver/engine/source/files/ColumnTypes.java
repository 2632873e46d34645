package dev.quiver.engine.source.files;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** Reads the SQL type names of a column list ({@code CREATE EXTERNAL TABLE t (a BIGINT, b DECIMAL(15,2))}). */
public final class ColumnTypes {
    private static final Pattern DECIMAL = Pattern.compile("(?:DECIMAL|NUMERIC|DEC)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?");
    private static final Pattern VARCHAR = Pattern.compile("(?:VARCHAR|CHAR|CHARACTER VARYING|CHARACTER|STRING|TEXT)\\s*(?:\\(\\s*\\d+\\s*\\))?");

    private ColumnTypes() {}

    /** The Arrow type of a SQL type name, case-insensitive; INVALID_ARGUMENT for one Quiver lacks. */
    public static ArrowType parse(String sqlType) {
        String type = sqlType.strip().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
        Matcher decimal = DECIMAL.matcher(type);
        if (decimal.matches()) {
            int precision = decimal.group(1) == null ? QuiverTypes.MAX_DECIMAL_PRECISION : Integer.parseInt(decimal.group(1));
            int scale = decimal.group(2) == null ? 0 : Integer.parseInt(decimal.group(2));
            if (precision < 1 || precision > QuiverTypes.MAX_DECIMAL_PRECISION || scale > precision) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Invalid type " + sqlType
                        + ": DECIMAL precision must be 1 to " + QuiverTypes.MAX_DECIMAL_PRECISION + " and the scale at most the precision");
            }
            return QuiverTypes.decimal(precision, scale);
        }
        if (VARCHAR.matcher(type).matches()) {
            return QuiverTypes.UTF8;
        }
        return switch (type) {
            case "BIGINT", "INT8", "LONG" -> QuiverTypes.INT64;
            case "INT", "INTEGER", "INT4" -> QuiverTypes.INT32;
            case "DOUBLE", "DOUBLE PRECISION", "FLOAT", "FLOAT8" -> QuiverTypes.FLOAT64;
            case "BOOLEAN", "BOOL" -> QuiverTypes.BOOLEAN;
            case "DATE" -> QuiverTypes.DATE32;
            case "TIMESTAMP" -> QuiverTypes.TIMESTAMP;
            default -> throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Unknown or unsupported column type '" + sqlType
                    + "'; use BIGINT, INTEGER, DOUBLE, DECIMAL(p,s), DATE, TIMESTAMP, BOOLEAN or VARCHAR");
        };
    }
}
