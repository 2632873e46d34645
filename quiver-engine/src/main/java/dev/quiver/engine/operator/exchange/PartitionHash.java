package dev.quiver.engine.operator.exchange;

import dev.quiver.engine.execution.PlanChecks;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.ValueVector;

/**
 * The engine's partition hash: one seeded hash over canonical values, identical on every JVM and
 * machine, so that every hash repartition (local or across workers) sends equal keys to the same
 * partition.
 *
 * <p>Values are hashed in canonical form: integers of any width, dates and timestamps as a
 * {@code long}; decimals with trailing zeros of the unscaled value stripped while the scale is
 * positive, and a decimal of scale 0 as the integer it is ({@code 2.00}, {@code 2.0} and the
 * integer {@code 2} hash alike); doubles by their bits with {@code -0.0} and NaN normalized;
 * strings and binaries by their bytes (UTF-8); booleans as 0 or 1; NULL as a fixed value. The
 * hash function is xxHash64 written out here (never {@code Object.hashCode}). Several key columns
 * combine by hashing each column with the previous columns' hash as the seed.
 *
 * <p>Hash tables inside operators should pass a different seed to {@link #hashRows(List, int, long)}
 * so that their buckets do not correlate with the partition a row was sent to.
 */
public final class PartitionHash {
    /** The seed of the partition hash; changing it moves every row to another partition. */
    public static final long SEED = 0x5155495645525048L;

    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;
    private static final long NULL_VALUE = 0x6E756C6C6E756C6CL;
    private static final long DECIMAL_TAG = 0x646563696D616CL;
    private static final long WIDE_DECIMAL_TAG = 0x77646563696D616CL;
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private PartitionHash() {}

    /** The partition hash of the first {@code rowCount} rows of the key {@code columns}. */
    public static long[] hashRows(List<? extends ValueVector> columns, int rowCount) {
        return hashRows(columns, rowCount, SEED);
    }

    /** Like {@link #hashRows(List, int)} with another seed (for hash tables inside operators). */
    public static long[] hashRows(List<? extends ValueVector> columns, int rowCount, long seed) {
        long[] hashes = new long[rowCount];
        java.util.Arrays.fill(hashes, seed);
        for (ValueVector column : columns) {
            hashColumn(column, rowCount, hashes);
        }
        return hashes;
    }

    /** The output partition of each of the first {@code rowCount} rows. */
    public static int[] partitions(List<? extends ValueVector> columns, int rowCount, int partitionCount) {
        long[] hashes = hashRows(columns, rowCount);
        int[] partitions = new int[rowCount];
        for (int i = 0; i < rowCount; i++) {
            partitions[i] = partition(hashes[i], partitionCount);
        }
        return partitions;
    }

    /** The partition of a hash: its unsigned remainder by {@code partitionCount}. */
    public static int partition(long hash, int partitionCount) {
        return (int) Long.remainderUnsigned(hash, partitionCount);
    }

    /**
     * Replaces each {@code hashes[i]}, the running hash of row {@code i}, by the hash of the
     * column's value with that running hash as the seed.
     */
    public static void hashColumn(ValueVector column, int rowCount, long[] hashes) {
        if (column instanceof NullVector) {
            for (int i = 0; i < rowCount; i++) {
                hashes[i] = hashLong(NULL_VALUE, hashes[i]);
            }
        } else if (column instanceof IntVector || column instanceof DateDayVector) {
            hashIntegers((BaseFixedWidthVector) column, 4, rowCount, hashes);
        } else if (column instanceof BigIntVector || column instanceof TimeStampVector) {
            hashIntegers((BaseFixedWidthVector) column, 8, rowCount, hashes);
        } else if (column instanceof DecimalVector v) {
            hashDecimals(v, rowCount, hashes);
        } else if (column instanceof BaseVariableWidthVector v) {
            hashBytes(v, rowCount, hashes);
        } else if (column instanceof Float8Vector v) {
            for (int i = 0; i < rowCount; i++) {
                hashes[i] = v.isNull(i) ? hashLong(NULL_VALUE, hashes[i]) : hashLong(doubleBits(v.get(i)), hashes[i]);
            }
        } else if (column instanceof Float4Vector v) {
            for (int i = 0; i < rowCount; i++) {
                hashes[i] = v.isNull(i) ? hashLong(NULL_VALUE, hashes[i]) : hashLong(doubleBits(v.get(i)), hashes[i]);
            }
        } else if (column instanceof BitVector v) {
            for (int i = 0; i < rowCount; i++) {
                hashes[i] = v.isNull(i) ? hashLong(NULL_VALUE, hashes[i]) : hashLong(v.get(i), hashes[i]);
            }
        } else if (column instanceof DateMilliVector v) {
            for (int i = 0; i < rowCount; i++) {
                hashes[i] = v.isNull(i) ? hashLong(NULL_VALUE, hashes[i]) : hashLong(v.get(i), hashes[i]);
            }
        } else if (column instanceof BaseIntVector v) {
            for (int i = 0; i < rowCount; i++) {
                hashes[i] = column.isNull(i) ? hashLong(NULL_VALUE, hashes[i]) : hashLong(v.getValueAsLong(i), hashes[i]);
            }
        } else {
            throw PlanChecks.planError("partition hash", "no hash for column %s of type %s", column.getField().getName(), column.getField().getType());
        }
    }

    /**
     * The hash of one Java value (as in {@link dev.quiver.engine.types.QuiverTypes}) with
     * {@code seed}: the same as a vector holding that value gives.
     */
    public static long hashValue(Object value, long seed) {
        if (value == null) {
            return hashLong(NULL_VALUE, seed);
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return hashLong(((Number) value).longValue(), seed);
        }
        if (value instanceof BigDecimal decimal) {
            BigDecimal canonical = decimal.scale() < 0 ? decimal.setScale(0) : decimal;
            return hashDecimal(canonical.unscaledValue(), canonical.scale(), seed);
        }
        if (value instanceof String string) {
            byte[] bytes = string.getBytes(StandardCharsets.UTF_8);
            return xxHash64(bytes, seed);
        }
        if (value instanceof Double d) {
            return hashLong(doubleBits(d), seed);
        }
        if (value instanceof Float f) {
            return hashLong(doubleBits(f), seed);
        }
        if (value instanceof Boolean b) {
            return hashLong(b ? 1 : 0, seed);
        }
        if (value instanceof java.time.LocalDate date) {
            return hashLong(date.toEpochDay(), seed);
        }
        throw PlanChecks.planError("partition hash", "no hash for a value of %s", value.getClass().getName());
    }

    /** The partition hash of one row of Java values. */
    public static long hashRow(List<?> values) {
        long hash = SEED;
        for (Object value : values) {
            hash = hashValue(value, hash);
        }
        return hash;
    }

    /**
     * The 4- or 8-byte integers (INTEGER, DATE, BIGINT, TIMESTAMP) of the first {@code rowCount}
     * rows, hashed as {@link #hashLong} of their value. The buffers are checked to hold the rows
     * once, then read by address: ArrowBuf's per-read checks (and {@code get}'s NULL check) cost
     * more than the hash.
     */
    private static void hashIntegers(BaseFixedWidthVector vector, int width, int rowCount, long[] hashes) {
        ArrowBuf data = vector.getDataBuffer();
        ArrowBuf validity = vector.getValidityBuffer();
        if ((long) rowCount * width > data.capacity() || (rowCount + 7) >> 3 > validity.capacity()) {
            throw new IndexOutOfBoundsException("hash of " + rowCount + " rows beyond the buffers of " + vector.getField());
        }
        long values = data.memoryAddress();
        long valid = validity.memoryAddress();
        boolean nulls = vector.getNullCount() > 0;
        for (int i = 0; i < rowCount; i++) {
            if (nulls && ((MemoryUtil.getByte(valid + (i >>> 3)) >>> (i & 7)) & 1) == 0) {
                hashes[i] = hashLong(NULL_VALUE, hashes[i]);
            } else {
                long value = width == 4 ? MemoryUtil.getInt(values + (long) i * 4) : MemoryUtil.getLong(values + (long) i * 8);
                hashes[i] = hashLong(value, hashes[i]);
            }
        }
    }

    private static void hashDecimals(DecimalVector vector, int rowCount, long[] hashes) {
        int scale = vector.getScale();
        ArrowBuf data = vector.getDataBuffer();
        for (int i = 0; i < rowCount; i++) {
            if (vector.isNull(i)) {
                hashes[i] = hashLong(NULL_VALUE, hashes[i]);
                continue;
            }
            long low = readLong(data, (long) i * 16);
            long high = readLong(data, (long) i * 16 + 8);
            if (high == (low >> 63)) {
                hashes[i] = hashDecimal(low, scale, hashes[i]);
            } else {
                BigInteger unscaled = BigInteger.valueOf(high).shiftLeft(64).or(BigInteger.valueOf(low).and(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)));
                hashes[i] = hashDecimal(unscaled, scale, hashes[i]);
            }
        }
    }

    private static long hashDecimal(long unscaled, int scale, long seed) {
        while (scale > 0 && unscaled % 10 == 0) {
            unscaled /= 10;
            scale--;
        }
        if (scale == 0) {
            return hashLong(unscaled, seed);
        }
        return hashLong(unscaled, hashLong(scale, seed ^ DECIMAL_TAG));
    }

    private static long hashDecimal(BigInteger unscaled, int scale, long seed) {
        if (unscaled.compareTo(LONG_MIN) >= 0 && unscaled.compareTo(LONG_MAX) <= 0) {
            return hashDecimal(unscaled.longValue(), scale, seed);
        }
        while (scale > 0) {
            BigInteger[] division = unscaled.divideAndRemainder(BigInteger.TEN);
            if (division[1].signum() != 0) {
                break;
            }
            unscaled = division[0];
            scale--;
        }
        if (unscaled.compareTo(LONG_MIN) >= 0 && unscaled.compareTo(LONG_MAX) <= 0) {
            return hashDecimal(unscaled.longValue(), scale, seed);
        }
        long low = unscaled.longValue();
        long high = unscaled.shiftRight(64).longValue();
        return hashLong(high, hashLong(low, hashLong(scale, seed ^ WIDE_DECIMAL_TAG)));
    }

    private static void hashBytes(BaseVariableWidthVector vector, int rowCount, long[] hashes) {
        ArrowBuf offsets = vector.getOffsetBuffer();
        ArrowBuf data = vector.getDataBuffer();
        for (int i = 0; i < rowCount; i++) {
            if (vector.isNull(i)) {
                hashes[i] = hashLong(NULL_VALUE, hashes[i]);
                continue;
            }
            int start = offsets.getInt((long) i * BaseVariableWidthVector.OFFSET_WIDTH);
            int end = offsets.getInt((long) (i + 1) * BaseVariableWidthVector.OFFSET_WIDTH);
            hashes[i] = xxHash64(data, start, end - start, hashes[i]);
        }
    }

    private static long doubleBits(double value) {
        if (value == 0.0) {
            return 0L;
        }
        return Double.doubleToLongBits(value);
    }

    /** xxHash64 of the 8 little-endian bytes of {@code value}. */
    static long hashLong(long value, long seed) {
        long hash = seed + P5 + 8;
        hash ^= round(0, value);
        hash = Long.rotateLeft(hash, 27) * P1 + P4;
        return avalanche(hash);
    }

    /** xxHash64 of {@code length} bytes of {@code buffer} from {@code offset}. */
    static long xxHash64(ArrowBuf buffer, long offset, int length, long seed) {
        long end = offset + length;
        long position = offset;
        long hash;
        if (length >= 32) {
            long v1 = seed + P1 + P2;
            long v2 = seed + P2;
            long v3 = seed;
            long v4 = seed - P1;
            long limit = end - 32;
            while (position <= limit) {
                v1 = round(v1, readLong(buffer, position));
                v2 = round(v2, readLong(buffer, position + 8));
                v3 = round(v3, readLong(buffer, position + 16));
                v4 = round(v4, readLong(buffer, position + 24));
                position += 32;
            }
            hash = mergeLanes(v1, v2, v3, v4);
        } else {
            hash = seed + P5;
        }
        hash += length;
        while (position + 8 <= end) {
            hash ^= round(0, readLong(buffer, position));
            hash = Long.rotateLeft(hash, 27) * P1 + P4;
            position += 8;
        }
        if (position + 4 <= end) {
            hash ^= (readInt(buffer, position) & 0xFFFFFFFFL) * P1;
            hash = Long.rotateLeft(hash, 23) * P2 + P3;
            position += 4;
        }
        while (position < end) {
            hash ^= (buffer.getByte(position) & 0xFFL) * P5;
            hash = Long.rotateLeft(hash, 11) * P1;
            position++;
        }
        return avalanche(hash);
    }

    /** xxHash64 of a byte array (the reference the vectorized form must agree with). */
    static long xxHash64(byte[] bytes, long seed) {
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int length = bytes.length;
        int position = 0;
        long hash;
        if (length >= 32) {
            long v1 = seed + P1 + P2;
            long v2 = seed + P2;
            long v3 = seed;
            long v4 = seed - P1;
            while (position <= length - 32) {
                v1 = round(v1, buffer.getLong(position));
                v2 = round(v2, buffer.getLong(position + 8));
                v3 = round(v3, buffer.getLong(position + 16));
                v4 = round(v4, buffer.getLong(position + 24));
                position += 32;
            }
            hash = mergeLanes(v1, v2, v3, v4);
        } else {
            hash = seed + P5;
        }
        hash += length;
        while (position + 8 <= length) {
            hash ^= round(0, buffer.getLong(position));
            hash = Long.rotateLeft(hash, 27) * P1 + P4;
            position += 8;
        }
        if (position + 4 <= length) {
            hash ^= (buffer.getInt(position) & 0xFFFFFFFFL) * P1;
            hash = Long.rotateLeft(hash, 23) * P2 + P3;
            position += 4;
        }
        while (position < length) {
            hash ^= (bytes[position] & 0xFFL) * P5;
            hash = Long.rotateLeft(hash, 11) * P1;
            position++;
        }
        return avalanche(hash);
    }

    private static long mergeLanes(long v1, long v2, long v3, long v4) {
        long hash = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
        hash = mergeRound(hash, v1);
        hash = mergeRound(hash, v2);
        hash = mergeRound(hash, v3);
        return mergeRound(hash, v4);
    }

    private static long round(long accumulator, long input) {
        accumulator += input * P2;
        accumulator = Long.rotateLeft(accumulator, 31);
        return accumulator * P1;
    }

    private static long mergeRound(long accumulator, long value) {
        accumulator ^= round(0, value);
        return accumulator * P1 + P4;
    }

    private static long avalanche(long hash) {
        hash ^= hash >>> 33;
        hash *= P2;
        hash ^= hash >>> 29;
        hash *= P3;
        hash ^= hash >>> 32;
        return hash;
    }

    private static long readLong(ArrowBuf buffer, long index) {
        long value = buffer.getLong(index);
        return LITTLE_ENDIAN ? value : Long.reverseBytes(value);
    }

    private static int readInt(ArrowBuf buffer, long index) {
        int value = buffer.getInt(index);
        return LITTLE_ENDIAN ? value : Integer.reverseBytes(value);
    }
}
