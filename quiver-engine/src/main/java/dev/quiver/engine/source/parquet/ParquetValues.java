package dev.quiver.engine.source.parquet;

import dev.quiver.engine.source.parquet.ParquetColumn.ValueKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.UUID;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/** Conversions of the Parquet values Quiver has no type for into the values it reads them as. */
final class ParquetValues {
    /** The Julian day of 1970-01-01. */
    private static final long EPOCH_JULIAN_DAY = 2_440_588L;
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private ParquetValues() {}

    /**
     * A physical value ({@code Boolean}, {@code Integer}, {@code Long}, {@code Float},
     * {@code Double} or {@link Binary}) of a column of {@code kind} as the Java value of the Quiver
     * type it reads as ({@link dev.quiver.engine.types.QuiverTypes}).
     */
    static Object convert(ValueKind kind, PrimitiveType type, Object raw) {
        return switch (kind) {
            case BOOLEAN, INT32, INT64, DATE, DOUBLE, TIMESTAMP_MICROS -> raw;
            case UINT32 -> Integer.toUnsignedLong((Integer) raw);
            case UINT64 -> unsigned((Long) raw);
            case FLOAT -> ((Float) raw).doubleValue();
            case DECIMAL_INT32, DECIMAL_INT64, DECIMAL_BYTES -> new BigDecimal(unscaled(raw), scale(type));
            case DECIMAL_WIDE -> wideDecimal(unscaled(raw), scale(type));
            case STRING -> ((Binary) raw).toStringUsingUTF8();
            case TIMESTAMP_MILLIS -> (Long) raw * 1000L;
            case TIMESTAMP_NANOS -> Math.floorDiv((Long) raw, 1000L);
            case INT96 -> int96Micros((Binary) raw);
            case TIME_MILLIS, TIME_MICROS, TIME_NANOS -> time(((Number) raw).longValue(), kind);
            case UUID -> uuid((Binary) raw);
            case BLOB -> raw instanceof Binary binary ? blob(binary) : String.valueOf(raw);
            case NESTED -> throw new IllegalArgumentException("a nested column has no single value");
        };
    }

    private static BigInteger unscaled(Object raw) {
        if (raw instanceof Binary binary) {
            return new BigInteger(binary.getBytes());
        }
        return BigInteger.valueOf(((Number) raw).longValue());
    }

    private static int scale(PrimitiveType type) {
        return type.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal ? decimal.getScale() : 0;
    }

    /** An INT96 timestamp (nanoseconds of the day, then the Julian day, little-endian) in microseconds since the epoch. */
    static long int96Micros(Binary value) {
        ByteBuffer bytes = value.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        long nanosOfDay = bytes.getLong();
        long julianDay = Integer.toUnsignedLong(bytes.getInt());
        return (julianDay - EPOCH_JULIAN_DAY) * MICROS_PER_DAY + Math.floorDiv(nanosOfDay, 1000L);
    }

    /** A time of day as DuckDB prints it: {@code HH:MM:SS}, then the fraction of a second without trailing zeros. */
    static String time(long value, ValueKind kind) {
        long micros = switch (kind) {
            case TIME_MILLIS -> value * 1000L;
            case TIME_NANOS -> Math.floorDiv(value, 1000L);
            default -> value;
        };
        long seconds = micros / 1_000_000L;
        long fraction = micros % 1_000_000L;
        StringBuilder text = new StringBuilder(15);
        two(text, seconds / 3600).append(':');
        two(text, seconds / 60 % 60).append(':');
        two(text, seconds % 60);
        if (fraction != 0) {
            String digits = String.format(java.util.Locale.ROOT, "%06d", fraction);
            int end = digits.length();
            while (digits.charAt(end - 1) == '0') {
                end--;
            }
            text.append('.').append(digits, 0, end);
        }
        return text.toString();
    }

    private static StringBuilder two(StringBuilder text, long value) {
        return text.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }

    /** A 16-byte UUID in its canonical text. */
    static String uuid(Binary value) {
        ByteBuffer bytes = value.toByteBuffer();
        return new UUID(bytes.getLong(bytes.position()), bytes.getLong(bytes.position() + 8)).toString();
    }

    /** Bytes as DuckDB shows a BLOB: printable ASCII but quotes and backslash as itself, every other byte as {@code \xHH}. */
    static String blob(Binary value) {
        byte[] bytes = value.getBytes();
        StringBuilder text = new StringBuilder(bytes.length);
        for (byte b : bytes) {
            int c = b & 0xff;
            if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'' && c != '"') {
                text.append((char) c);
            } else {
                text.append("\\x").append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        return text.toString();
    }

    /** An unsigned 64-bit integer. */
    static BigDecimal unsigned(long value) {
        return value >= 0 ? BigDecimal.valueOf(value) : new BigDecimal(new BigInteger(Long.toUnsignedString(value)));
    }

    /** A decimal wider than Quiver's as the nearest double. */
    static double wideDecimal(BigInteger unscaled, int scale) {
        return new BigDecimal(unscaled, scale).doubleValue();
    }
}
