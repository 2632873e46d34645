package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * {@code x [NOT] IN (constants)}: the constants become a sorted primitive array (integers, dates,
 * decimals up to 18 digits at the input's scale), a hash table of UTF-8 byte arrays probed straight
 * from the vector's buffer (VARCHAR) or, for other types, a set of Java values. A NULL among the constants turns every non-match into NULL.
 */
public final class InListKernels {
    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
    private InListKernels() {}

    public static FieldVector in(Operand input, List<Object> values, boolean negated, int rows, BufferAllocator allocator) {
        boolean listHasNull = values.contains(null);
        List<Object> constants = values.stream().filter(v -> v != null).toList();
        BitVector out = (BitVector) Vectors.allocate(QuiverTypes.BOOLEAN, rows, allocator);
        try {
            if (input.isNullConstant()) {
                out.setValueCount(rows);
                return out;
            }
            boolean[] match = new boolean[rows];
            ArrowType type = input.type();
            try (FieldVector vector = input.materialize(allocator)) {
                if (type instanceof ArrowType.Utf8) {
                    strings((VarCharVector) vector, constants, match, rows);
                } else if (Numeric.isLongDomain(type) && Numeric.precision(type) <= 18 && !(type instanceof ArrowType.Bool)) {
                    longs(input, constants, match);
                } else {
                    generic(vector, constants, match, rows);
                }
                ArrowBuf bits = out.getDataBuffer();
                ArrowBuf validity = out.getValidityBuffer();
                for (int i = 0; i < rows; i++) {
                    if (vector.isNull(i)) {
                        continue;
                    }
                    if (match[i]) {
                        Bitmaps.set(validity, i);
                        if (!negated) {
                            Bitmaps.set(bits, i);
                        }
                    } else if (!listHasNull) {
                        Bitmaps.set(validity, i);
                        if (negated) {
                            Bitmaps.set(bits, i);
                        }
                    }
                }
            }
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    private static void longs(Operand input, List<Object> constants, boolean[] match) {
        long[] sorted = exactLongs(constants, Numeric.scale(input.type()));
        long[] values = Numeric.decodeLongs(input);
        for (int i = 0; i < values.length; i++) {
            match[i] = contains(sorted, values[i]);
        }
    }

    /**
     * The non-NULL {@code constants} as unscaled 64-bit values at {@code scale}, sorted, leaving out
     * those that no value of that scale can equal (more fractional digits, beyond 64 bits).
     */
    public static long[] exactLongs(List<Object> constants, int scale) {
        long[] set = new long[constants.size()];
        int count = 0;
        for (Object constant : constants) {
            if (constant == null) {
                continue;
            }
            // a constant with more fractional digits than the input can never equal it
            BigDecimal exact = constant instanceof BigDecimal d ? d : new BigDecimal(constant.toString());
            BigDecimal scaled = exact.movePointRight(scale);
            if (scaled.stripTrailingZeros().scale() > 0 || scaled.compareTo(LONG_MIN) < 0 || scaled.compareTo(LONG_MAX) > 0) {
                continue;
            }
            set[count++] = scaled.longValueExact();
        }
        long[] sorted = Arrays.copyOf(set, count);
        Arrays.sort(sorted);
        return sorted;
    }

    /** Whether {@code value} is in {@code sorted}. */
    public static boolean contains(long[] sorted, long value) {
        if (sorted.length <= 8) {
            for (long candidate : sorted) {
                if (candidate == value) {
                    return true;
                }
            }
            return false;
        }
        return Arrays.binarySearch(sorted, value) >= 0;
    }

    private static void strings(VarCharVector vector, List<Object> constants, boolean[] match, int rows) {
        byte[][] candidates = new byte[constants.size()][];
        for (int c = 0; c < candidates.length; c++) {
            candidates[c] = constants.get(c).toString().getBytes(StandardCharsets.UTF_8);
        }
        // open addressing on an FNV hash of the bytes: candidate index + 1 per slot, 0 when empty
        int[] table = new int[Integer.highestOneBit(Math.max(candidates.length, 1) * 4 - 1) << 1];
        int mask = table.length - 1;
        for (int c = 0; c < candidates.length; c++) {
            int slot = hash(candidates[c]) & mask;
            while (table[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            table[slot] = c + 1;
        }
        ArrowBuf offsets = vector.getOffsetBuffer();
        ArrowBuf data = vector.getDataBuffer();
        for (int i = 0; i < rows; i++) {
            int start = offsets.getInt((long) i * 4);
            int length = offsets.getInt((long) i * 4 + 4) - start;
            int slot = hash(data, start, length) & mask;
            while (table[slot] != 0) {
                byte[] candidate = candidates[table[slot] - 1];
                if (candidate.length == length && equalBytes(data, start, candidate)) {
                    match[i] = true;
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
    }

    private static int hash(byte[] bytes) {
        int hash = 0x811C9DC5;
        for (byte b : bytes) {
            hash = (hash ^ (b & 0xFF)) * 0x01000193;
        }
        return hash ^ (hash >>> 16);
    }

    private static int hash(ArrowBuf data, int start, int length) {
        int hash = 0x811C9DC5;
        for (int k = 0; k < length; k++) {
            hash = (hash ^ (data.getByte(start + k) & 0xFF)) * 0x01000193;
        }
        return hash ^ (hash >>> 16);
    }

    private static boolean equalBytes(ArrowBuf data, int start, byte[] candidate) {
        for (int k = 0; k < candidate.length; k++) {
            if (data.getByte(start + k) != candidate[k]) {
                return false;
            }
        }
        return true;
    }

    /** Other types (doubles, booleans, wide decimals): compare Java values; rare in practice. */
    private static void generic(FieldVector vector, List<Object> constants, boolean[] match, int rows) {
        Set<Object> set = new HashSet<>();
        for (Object constant : constants) {
            set.add(normalize(constant));
        }
        for (int i = 0; i < rows; i++) {
            if (!vector.isNull(i)) {
                match[i] = set.contains(normalize(VectorValues.get(vector, i)));
            }
        }
    }

    private static Object normalize(Object value) {
        if (value instanceof BigDecimal d) {
            return d.stripTrailingZeros();
        }
        if (value instanceof Float || value instanceof Double) {
            // + 0.0 turns -0.0 into 0.0, which SQL compares equal
            return ((Number) value).doubleValue() + 0.0;
        }
        return value;
    }

}
