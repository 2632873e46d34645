package dev.quiver.engine.source.parquet;

import dev.quiver.engine.source.parquet.ParquetColumn.ValueKind;
import dev.quiver.engine.types.QuiverTypes;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DateLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * What Quiver reads a Parquet primitive column as. Every column reads as something, so that a
 * file opens whatever other tools put in it:
 *
 * <table>
 * <tr><th>Parquet</th><th>Quiver</th></tr>
 * <tr><td>BOOLEAN</td><td>BOOLEAN</td></tr>
 * <tr><td>INT32, INT(8/16/32, signed)</td><td>INTEGER</td></tr>
 * <tr><td>INT(8/16/32, unsigned), INT64, INT(64, signed)</td><td>BIGINT</td></tr>
 * <tr><td>INT(64, unsigned)</td><td>DECIMAL(20,0)</td></tr>
 * <tr><td>FLOAT, DOUBLE</td><td>DOUBLE</td></tr>
 * <tr><td>DECIMAL(p ≤ 38, s) on INT32, INT64, BINARY, FIXED_LEN_BYTE_ARRAY</td><td>DECIMAL(p,s)</td></tr>
 * <tr><td>DECIMAL(p &gt; 38)</td><td>DOUBLE (as DuckDB reads it)</td></tr>
 * <tr><td>DATE</td><td>DATE</td></tr>
 * <tr><td>TIMESTAMP(MILLIS/MICROS/NANOS), adjusted to UTC or not; INT96</td><td>TIMESTAMP (microseconds; UTC for adjusted ones)</td></tr>
 * <tr><td>TIME(MILLIS/MICROS/NANOS)</td><td>VARCHAR {@code HH:MM:SS[.ffffff]} (Quiver has no TIME type)</td></tr>
 * <tr><td>UUID</td><td>VARCHAR, the canonical 36-character form</td></tr>
 * <tr><td>BINARY (STRING, ENUM, JSON, or no annotation)</td><td>VARCHAR</td></tr>
 * <tr><td>FIXED_LEN_BYTE_ARRAY, BSON, INTERVAL, FLOAT16 and anything else</td><td>VARCHAR of the bytes as DuckDB shows a BLOB ({@code \xAB})</td></tr>
 * </table>
 */
final class ParquetTypes {
    private ParquetTypes() {}

    static ValueKind kind(PrimitiveType type) {
        LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
        PrimitiveTypeName physical = type.getPrimitiveTypeName();
        if (logical instanceof DecimalLogicalTypeAnnotation decimal) {
            if (decimal.getPrecision() > QuiverTypes.MAX_DECIMAL_PRECISION) {
                return ValueKind.DECIMAL_WIDE;
            }
            return switch (physical) {
                case INT32 -> ValueKind.DECIMAL_INT32;
                case INT64 -> ValueKind.DECIMAL_INT64;
                case BINARY, FIXED_LEN_BYTE_ARRAY -> ValueKind.DECIMAL_BYTES;
                default -> ValueKind.BLOB;
            };
        }
        return switch (physical) {
            case BOOLEAN -> ValueKind.BOOLEAN;
            case INT32 -> int32(logical);
            case INT64 -> int64(logical);
            case INT96 -> ValueKind.INT96;
            case FLOAT -> ValueKind.FLOAT;
            case DOUBLE -> ValueKind.DOUBLE;
            case BINARY -> binary(logical);
            case FIXED_LEN_BYTE_ARRAY -> logical instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation ? ValueKind.UUID : ValueKind.BLOB;
        };
    }

    private static ValueKind int32(LogicalTypeAnnotation logical) {
        if (logical == null) {
            return ValueKind.INT32;
        }
        if (logical instanceof DateLogicalTypeAnnotation) {
            return ValueKind.DATE;
        }
        if (logical instanceof IntLogicalTypeAnnotation ints) {
            return ints.isSigned() ? ValueKind.INT32 : ValueKind.UINT32;
        }
        if (logical instanceof TimeLogicalTypeAnnotation) {
            return ValueKind.TIME_MILLIS;
        }
        return ValueKind.INT32;
    }

    private static ValueKind int64(LogicalTypeAnnotation logical) {
        if (logical == null) {
            return ValueKind.INT64;
        }
        if (logical instanceof IntLogicalTypeAnnotation ints) {
            return ints.isSigned() ? ValueKind.INT64 : ValueKind.UINT64;
        }
        if (logical instanceof TimestampLogicalTypeAnnotation timestamp) {
            return switch (timestamp.getUnit()) {
                case MILLIS -> ValueKind.TIMESTAMP_MILLIS;
                case MICROS -> ValueKind.TIMESTAMP_MICROS;
                case NANOS -> ValueKind.TIMESTAMP_NANOS;
            };
        }
        if (logical instanceof TimeLogicalTypeAnnotation time) {
            return time.getUnit() == LogicalTypeAnnotation.TimeUnit.NANOS ? ValueKind.TIME_NANOS : ValueKind.TIME_MICROS;
        }
        return ValueKind.INT64;
    }

    private static ValueKind binary(LogicalTypeAnnotation logical) {
        // Binary without an annotation is read as text: older writers (Impala, early Spark) omit it.
        if (logical == null || logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                || logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
            return ValueKind.STRING;
        }
        return ValueKind.BLOB;
    }

    static ArrowType arrowType(PrimitiveType type, ValueKind kind) {
        return switch (kind) {
            case BOOLEAN -> QuiverTypes.BOOLEAN;
            case INT32 -> QuiverTypes.INT32;
            case UINT32, INT64 -> QuiverTypes.INT64;
            case UINT64 -> QuiverTypes.decimal(20, 0);
            case FLOAT, DOUBLE, DECIMAL_WIDE -> QuiverTypes.FLOAT64;
            case DATE -> QuiverTypes.DATE32;
            case DECIMAL_INT32, DECIMAL_INT64, DECIMAL_BYTES -> {
                DecimalLogicalTypeAnnotation decimal = (DecimalLogicalTypeAnnotation) type.getLogicalTypeAnnotation();
                yield QuiverTypes.decimal(decimal.getPrecision(), decimal.getScale());
            }
            case STRING, UUID, BLOB, TIME_MILLIS, TIME_MICROS, TIME_NANOS -> QuiverTypes.UTF8;
            case TIMESTAMP_MILLIS, TIMESTAMP_MICROS, TIMESTAMP_NANOS, INT96 -> QuiverTypes.TIMESTAMP;
            case NESTED -> throw new IllegalArgumentException("a nested column has no primitive type");
        };
    }
}
