package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Kernels over list and map vectors (a map is a list of key/value structs): the number of
 * elements, the element at a position, the value of a key. They read the offsets and copy
 * elements vector to vector ({@code copyFromSafe}), never boxing a value. A NULL list, map,
 * position or key gives NULL, as in DuckDB.
 */
public final class ListKernels {
    private ListKernels() {}

    /** The number of elements of each list (entries of each map) as {@code type}, an integer type. */
    public static FieldVector length(Operand lists, ArrowType type, int rows, BufferAllocator allocator) {
        ListVector vector = (ListVector) lists.vector();
        ArrowBuf offsets = vector.getOffsetBuffer();
        FieldVector out = Vectors.allocate(type, rows, allocator);
        try {
            BigIntVector lengths = (BigIntVector) out;
            for (int i = 0; i < rows; i++) {
                if (!vector.isNull(i)) {
                    lengths.set(i, offsets.getInt((long) (i + 1) * 4) - offsets.getInt((long) i * 4));
                }
            }
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /**
     * The element at {@code positions} of each list: 1-based, negative counting from the end
     * ({@code -1} is the last), NULL when out of range (0 included), as {@code type} (the element
     * type as SQL sees it, to which the stored element type is cast when they differ).
     */
    public static FieldVector element(Operand lists, Operand positions, ArrowType type, String display, int rows, BufferAllocator allocator) {
        ListVector vector = (ListVector) lists.vector();
        ArrowBuf offsets = vector.getOffsetBuffer();
        long[] position = Numeric.decodeLongs(positions);
        FieldVector elements = vector.getDataVector();
        FieldVector out = newVector(elements, rows, allocator);
        try {
            for (int i = 0; i < rows; i++) {
                if (vector.isNull(i) || positions.isNull(i)) {
                    continue;
                }
                int start = offsets.getInt((long) i * 4);
                int length = offsets.getInt((long) (i + 1) * 4) - start;
                long p = position[i];
                long index = p > 0 ? p - 1 : p < 0 ? length + p : -1;
                if (index >= 0 && index < length) {
                    out.copyFromSafe(start + (int) index, i, elements);
                }
            }
            out.setValueCount(rows);
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
        return castTo(out, type, display, rows, allocator);
    }

    /**
     * The value of {@code keys} in each map, NULL when the map has no such key (DuckDB's
     * {@code m[key]}); keys compare as text or as integers.
     */
    public static FieldVector mapValue(Operand maps, Operand keys, ArrowType type, String display, int rows, BufferAllocator allocator) {
        MapVector vector = (MapVector) maps.vector();
        StructVector entries = (StructVector) vector.getDataVector();
        FieldVector mapKeys = (FieldVector) entries.getChildByOrdinal(0);
        FieldVector values = (FieldVector) entries.getChildByOrdinal(1);
        KeyMatcher matcher = KeyMatcher.of(mapKeys, keys, display, allocator);
        ArrowBuf offsets = vector.getOffsetBuffer();
        FieldVector out = newVector(values, rows, allocator);
        try (matcher) {
            for (int i = 0; i < rows; i++) {
                if (vector.isNull(i) || keys.isNull(i)) {
                    continue;
                }
                int end = offsets.getInt((long) (i + 1) * 4);
                for (int entry = offsets.getInt((long) i * 4); entry < end; entry++) {
                    if (matcher.matches(entry, i)) {
                        out.copyFromSafe(entry, i, values);
                        break;
                    }
                }
            }
            out.setValueCount(rows);
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
        return castTo(out, type, display, rows, allocator);
    }

    private static FieldVector newVector(FieldVector like, int rows, BufferAllocator allocator) {
        FieldVector out = like.getField().createVector(allocator);
        try {
            out.setInitialCapacity(Math.max(rows, 1));
            out.allocateNew();
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** {@code vector} (owned) as {@code type}: itself when its type is that, else cast. */
    private static FieldVector castTo(FieldVector vector, ArrowType type, String display, int rows, BufferAllocator allocator) {
        ArrowType stored = vector.getField().getType();
        if (stored.equals(type)) {
            return vector;
        }
        try (Operand operand = Operand.of(stored, vector, rows)) {
            return CastKernels.cast(operand, type, display, rows, allocator);
        }
    }

    /** Compares the keys of map entries with the key asked for in each row. */
    private interface KeyMatcher extends AutoCloseable {
        boolean matches(int entry, int row);

        @Override
        void close();

        static KeyMatcher of(FieldVector mapKeys, Operand keys, String display, BufferAllocator allocator) {
            if (mapKeys instanceof VarCharVector text && keys.type() instanceof ArrowType.Utf8) {
                VarCharVector wanted = (VarCharVector) keys.materialize(allocator);
                return new KeyMatcher() {
                    @Override
                    public boolean matches(int entry, int row) {
                        return ByteFunctionHelpers.equal(text.getDataBuffer(), text.getStartOffset(entry), text.getEndOffset(entry),
                                wanted.getDataBuffer(), wanted.getStartOffset(row), wanted.getEndOffset(row)) == 1;
                    }

                    @Override
                    public void close() {
                        wanted.close();
                    }
                };
            }
            if (mapKeys instanceof BaseIntVector integers && keys.type() instanceof ArrowType.Int) {
                long[] wanted = Numeric.decodeLongs(keys);
                return new KeyMatcher() {
                    @Override
                    public boolean matches(int entry, int row) {
                        return integers.getValueAsLong(entry) == wanted[row];
                    }

                    @Override
                    public void close() {}
                };
            }
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "A map key lookup " + display + " with keys of type "
                    + QuiverTypes.sqlName(mapKeys.getField().getType()) + " and a " + QuiverTypes.sqlName(keys.type())
                    + " key is not supported: map keys compare as VARCHAR or as integers");
        }
    }
}
