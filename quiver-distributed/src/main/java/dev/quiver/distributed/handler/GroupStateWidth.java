package dev.quiver.distributed.handler;

import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateFunction;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Bytes one group of a grouped FINAL hash aggregate holds, mirroring what the engine's
 * {@code GroupHashTable} and accumulators reserve per group of capacity: 8 bytes of hash and two
 * 8-byte slots (the table is at most half full), plus per key column 9 bytes for a value that fits
 * a {@code long} or a double (value and null flag), 17 for a decimal, 5 (offset and null flag)
 * plus the string's bytes for a string; per accumulator 8 for COUNT, 9 for a long or double SUM,
 * MIN or MAX, 17 for a decimal one, their sum for AVG, and 28 plus the string for a string MIN/MAX.
 * The engine reserves for a power-of-two capacity ({@link #capacityFor}) that also holds the rows
 * of the batch at hand; {@link AggregateMemorySizingHandler#taskBytes} says why it adds no headroom
 * for that batch.
 */
final class GroupStateWidth {
    /** Assumed bytes of a string key or MIN/MAX value when nothing better is known. */
    static final int DEFAULT_STRING_BYTES = 16;
    private static final int TABLE_BYTES_PER_GROUP = 8 + 2 * 8;

    private GroupStateWidth() {}

    static long bytesPerGroup(List<ArrowType> keyTypes, List<AggregateExpr> aggregates) {
        long bytes = TABLE_BYTES_PER_GROUP;
        for (ArrowType key : keyTypes) {
            bytes += keyBytes(key);
        }
        for (AggregateExpr aggregate : aggregates) {
            bytes += accumulatorBytes(aggregate);
        }
        return bytes;
    }

    private static long keyBytes(ArrowType type) {
        if (type instanceof ArrowType.Decimal) {
            return 17;
        }
        if (type instanceof ArrowType.Utf8) {
            return 5 + DEFAULT_STRING_BYTES;
        }
        return 9;
    }

    private static long accumulatorBytes(AggregateExpr aggregate) {
        if (aggregate.function() == AggregateFunction.COUNT) {
            return 8;
        }
        if (aggregate.function() == AggregateFunction.AVG) {
            return valueBytes(aggregate.stateFields().get(0).getType()) + 8;
        }
        if (aggregate.type() instanceof ArrowType.Utf8) {
            return 8 + 4 + 16 + DEFAULT_STRING_BYTES;
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
