package dev.quiver.distributed.handler;

import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateFunction;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Bytes a grouped hash aggregate holds, mirroring what the engine's {@code GroupHashTable} and
 * accumulators reserve: per group of capacity 8 bytes of hash and two 8-byte slots (the table is at
 * most half full), plus per key column 9 bytes for a value that fits a {@code long} or a double
 * (value and null flag), 17 for a decimal, 5 (offset and null flag) for a string, whose bytes live in
 * an arena that doubles as it grows; per accumulator 8 for COUNT, 9 for a long or double SUM, MIN or
 * MAX, 17 for a decimal one, their sum for AVG, and 28 plus the string for a string MIN/MAX. A
 * DISTINCT aggregate (SINGLE mode) also keeps a table of the {@code (group, value)} pairs it has
 * seen: per pair of capacity 24 bytes of table, 9 for the group id and the value's key bytes. The
 * engine reserves for a power-of-two capacity ({@link #capacityFor}) that also holds the rows of the
 * batch at hand; {@link AggregateMemorySizingHandler#taskBytes} says why it adds no headroom for that
 * batch.
 */
final class GroupStateWidth {
    /** Assumed bytes of a string value when nothing better is known. */
    static final int DEFAULT_STRING_BYTES = 16;
    /**
     * What a string arena holds per byte of its strings: it doubles when it is full, so it holds
     * between 1× and 2× them; counting √2× keeps the estimate within √2 of it either way.
     */
    static final double ARENA_FACTOR = Math.sqrt(2);
    private static final int TABLE_BYTES_PER_GROUP = 8 + 2 * 8;
    private static final int GROUP_ID_BYTES = 9;

    private GroupStateWidth() {}

    /** Bytes per group of capacity: the table, every key's fixed part and every accumulator (string MIN/MAX with {@code stringBytes}). */
    static long bytesPerGroup(List<ArrowType> keyTypes, List<AggregateExpr> aggregates, double stringBytes) {
        long bytes = TABLE_BYTES_PER_GROUP;
        for (ArrowType key : keyTypes) {
            bytes += keyBytes(key);
        }
        for (AggregateExpr aggregate : aggregates) {
            bytes += accumulatorBytes(aggregate, stringBytes);
        }
        return bytes;
    }

    /** With {@link #DEFAULT_STRING_BYTES} for every string. */
    static long bytesPerGroup(List<ArrowType> keyTypes, List<AggregateExpr> aggregates) {
        return bytesPerGroup(keyTypes, aggregates, DEFAULT_STRING_BYTES) + stringKeys(keyTypes) * DEFAULT_STRING_BYTES;
    }

    /** How many of {@code types} are strings (their bytes live in an arena, per actual group, not per slot). */
    static int stringKeys(List<ArrowType> types) {
        return (int) types.stream().filter(ArrowType.Utf8.class::isInstance).count();
    }

    /** Bytes per pair of capacity in a DISTINCT aggregate's table of seen {@code (group, value)} pairs. */
    static long bytesPerPair(ArrowType valueType) {
        return TABLE_BYTES_PER_GROUP + GROUP_ID_BYTES + keyBytes(valueType);
    }

    /**
     * The average bytes of a string column of {@code schema} whose rows take {@code rowBytes} on
     * average (Arrow buffer sizes, as samples and costs count them): what the row holds beyond its
     * fixed-width columns, the strings' offsets and the validity bits, shared by its string columns.
     * {@link #DEFAULT_STRING_BYTES} without a string column or a width.
     */
    static double stringBytes(Schema schema, double rowBytes) {
        int strings = 0;
        double fixed = 0;
        for (Field field : schema.getFields()) {
            fixed += 1.0 / 8;
            if (field.getType() instanceof ArrowType.Utf8) {
                strings++;
                fixed += 4;
            } else {
                fixed += fixedWidth(field.getType());
            }
        }
        if (strings == 0 || !(rowBytes > 0)) {
            return DEFAULT_STRING_BYTES;
        }
        return Math.max(0, (rowBytes - fixed) / strings);
    }

    private static double fixedWidth(ArrowType type) {
        if (type instanceof ArrowType.Decimal) {
            return 16;
        }
        if (type instanceof ArrowType.Int integer) {
            return integer.getBitWidth() / 8.0;
        }
        if (type instanceof ArrowType.FloatingPoint || type instanceof ArrowType.Timestamp) {
            return 8;
        }
        if (type instanceof ArrowType.Date || type instanceof ArrowType.Bool) {
            return type instanceof ArrowType.Bool ? 1.0 / 8 : 4;
        }
        return 8;
    }

    private static long keyBytes(ArrowType type) {
        if (type instanceof ArrowType.Decimal) {
            return 17;
        }
        if (type instanceof ArrowType.Utf8) {
            return 5;
        }
        return 9;
    }

    private static long accumulatorBytes(AggregateExpr aggregate, double stringBytes) {
        if (aggregate.function() == AggregateFunction.COUNT) {
            return 8;
        }
        if (aggregate.function() == AggregateFunction.AVG) {
            return valueBytes(aggregate.stateFields().get(0).getType()) + 8;
        }
        if (aggregate.type() instanceof ArrowType.Utf8) {
            return 8 + 4 + 16 + (long) Math.ceil(stringBytes);
        }
        return valueBytes(aggregate.type());
    }

    private static long valueBytes(ArrowType type) {
        return type instanceof ArrowType.Decimal ? 17 : 9;
    }

    /** The engine's group capacity for {@code groups} groups: the next power of two, at least 16. */
    static long capacityFor(long groups) {
        long wanted = Math.max(1, groups - 1);
        return Math.max(16, Long.highestOneBit(wanted) << 1);
    }
}
