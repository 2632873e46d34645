package dev.quiver.engine.batch;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The gather kernel: builds new vectors from chosen rows of existing ones. Joins, sorts, filters
 * and repartitions all reduce to it. An index of {@code -1} produces a NULL (outer-join padding).
 */
public final class Take {
    private Take() {}

    /** Rows {@code indices[0..count)} of {@code source} as a new vector the caller owns. */
    public static FieldVector take(ValueVector source, int[] indices, int count, BufferAllocator allocator) {
        if (source instanceof BaseFixedWidthVector fixed && !(source instanceof BitVector)) {
            int width = fixed.getTypeWidth();
            if (width == 4 || width == 8 || width == 16) {
                return takeFixed(fixed, width, indices, count, allocator);
            }
        }
        if (source instanceof BaseVariableWidthVector variable) {
            return takeVariable(variable, indices, count, allocator);
        }
        return takeByCopy(source, indices, count, allocator);
    }

    /** Any vector, one {@code copyFromSafe} per row: the general path the typed ones must agree with. */
    static FieldVector takeByCopy(ValueVector source, int[] indices, int count, BufferAllocator allocator) {
        FieldVector target = (FieldVector) source.getField().createVector(allocator);
        try {
            allocate(target, count, source, indices);
            for (int i = 0; i < count; i++) {
                int index = indices[i];
                if (index < 0) {
                    VectorValues.setNull(target, i);
                } else {
                    target.copyFromSafe(index, i, source);
                }
            }
            target.setValueCount(count);
            return target;
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }

    /**
     * Fixed-width values copied buffer to buffer: no per-row virtual calls or capacity checks.
     * The indices are checked against the source's buffers once, then every read and write goes
     * by address (ArrowBuf checks each access, which costs more than the copy); the validity is
     * built 64 rows at a time.
     */
    private static FieldVector takeFixed(BaseFixedWidthVector source, int width, int[] indices, int count, BufferAllocator allocator) {
        BaseFixedWidthVector target = (BaseFixedWidthVector) source.getField().createVector(allocator);
        try {
            // take4/8/16 write every value, a padding row's as zero, and putWord every validity bit
            OverwriteAllocation.allocate(target, count);
            ArrowBuf from = source.getDataBuffer();
            ArrowBuf to = target.getDataBuffer();
            ArrowBuf fromValidity = source.getValidityBuffer();
            ArrowBuf toValidity = target.getValidityBuffer();
            int max = -1;
            for (int i = 0; i < count; i++) {
                max = Math.max(max, indices[i]);
            }
            if ((long) (max + 1) * width > from.capacity() || (max >= 0 && (max >> 3) >= fromValidity.capacity())
                    || (long) count * width > to.capacity() || (count + 7) >> 3 > toValidity.capacity()) {
                throw new IndexOutOfBoundsException("take of " + count + " values up to index " + max + " (width " + width
                        + ") outside buffers of " + from.capacity() + " and " + to.capacity() + " bytes");
            }
            long src = from.memoryAddress();
            long dst = to.memoryAddress();
            long srcValid = fromValidity.memoryAddress();
            long dstValid = toValidity.memoryAddress();
            for (int base = 0; base < count; base += 64) {
                int end = Math.min(count, base + 64);
                long valid = switch (width) {
                    case 4 -> take4(src, dst, srcValid, indices, base, end);
                    case 8 -> take8(src, dst, srcValid, indices, base, end);
                    default -> take16(src, dst, srcValid, indices, base, end);
                };
                putWord(dstValid, base, end, valid);
            }
            target.setValueCount(count);
            return target;
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }

    // Rows [base, end) of a take, at most 64: copies each value (a NULL's bytes too, harmlessly) and
    // returns the rows' validity bits. A padding row (index -1) gets a zero value and is NULL.

    private static long take4(long src, long dst, long srcValid, int[] indices, int base, int end) {
        long valid = 0;
        for (int i = base; i < end; i++) {
            int index = indices[i];
            if (index >= 0) {
                MemoryUtil.putInt(dst + (long) i * 4, MemoryUtil.getInt(src + (long) index * 4));
                valid |= (long) ((MemoryUtil.getByte(srcValid + (index >>> 3)) >>> (index & 7)) & 1) << (i - base);
            } else {
                MemoryUtil.putInt(dst + (long) i * 4, 0);
            }
        }
        return valid;
    }

    private static long take8(long src, long dst, long srcValid, int[] indices, int base, int end) {
        long valid = 0;
        for (int i = base; i < end; i++) {
            int index = indices[i];
            if (index >= 0) {
                MemoryUtil.putLong(dst + (long) i * 8, MemoryUtil.getLong(src + (long) index * 8));
                valid |= (long) ((MemoryUtil.getByte(srcValid + (index >>> 3)) >>> (index & 7)) & 1) << (i - base);
            } else {
                MemoryUtil.putLong(dst + (long) i * 8, 0L);
            }
        }
        return valid;
    }

    private static long take16(long src, long dst, long srcValid, int[] indices, int base, int end) {
        long valid = 0;
        for (int i = base; i < end; i++) {
            int index = indices[i];
            if (index >= 0) {
                long from = src + (long) index * 16;
                long to = dst + (long) i * 16;
                MemoryUtil.putLong(to, MemoryUtil.getLong(from));
                MemoryUtil.putLong(to + 8, MemoryUtil.getLong(from + 8));
                valid |= (long) ((MemoryUtil.getByte(srcValid + (index >>> 3)) >>> (index & 7)) & 1) << (i - base);
            } else {
                MemoryUtil.putLong(dst + (long) i * 16, 0L);
                MemoryUtil.putLong(dst + (long) i * 16 + 8, 0L);
            }
        }
        return valid;
    }

    /** Writes the validity bits of rows {@code [base, end)} ({@code base} a multiple of 64), touching only their bytes. */
    private static void putWord(long address, int base, int end, long bits) {
        long at = address + (base >> 3);
        if (end - base == 64) {
            MemoryUtil.putLong(at, bits);
            return;
        }
        for (int b = 0; b < (end - base + 7) >> 3; b++) {
            MemoryUtil.putByte(at + b, (byte) (bits >>> (b << 3)));
        }
    }

    /** Strings and binaries: offsets computed and bytes copied buffer to buffer. */
    private static FieldVector takeVariable(BaseVariableWidthVector source, int[] indices, int count, BufferAllocator allocator) {
        BaseVariableWidthVector target = (BaseVariableWidthVector) source.getField().createVector(allocator);
        try {
            allocate(target, count, source, indices);
            ArrowBuf fromOffsets = source.getOffsetBuffer();
            ArrowBuf fromData = source.getDataBuffer();
            ArrowBuf fromValidity = source.getValidityBuffer();
            ArrowBuf toOffsets = target.getOffsetBuffer();
            ArrowBuf toData = target.getDataBuffer();
            ArrowBuf toValidity = target.getValidityBuffer();
            toValidity.setZero(0, toValidity.capacity());
            int position = 0;
            toOffsets.setInt(0, 0);
            for (int i = 0; i < count; i++) {
                int index = indices[i];
                if (index >= 0 && BitVectorHelper.get(fromValidity, index) == 1) {
                    int start = fromOffsets.getInt((long) index * 4);
                    int length = fromOffsets.getInt((long) index * 4 + 4) - start;
                    toData.setBytes(position, fromData, start, length);
                    position += length;
                    BitVectorHelper.setBit(toValidity, i);
                }
                toOffsets.setInt((long) (i + 1) * 4, position);
            }
            // every offset is written: setValueCount must not "fill holes" after a stale last index
            target.setLastSet(count - 1);
            target.setValueCount(count);
            return target;
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }

    /** A vector of {@code count} nulls shaped like {@code field}'s type. */
    public static FieldVector nulls(org.apache.arrow.vector.types.pojo.Field field, int count, BufferAllocator allocator) {
        FieldVector target = field.createVector(allocator);
        target.setInitialCapacity(count);
        target.allocateNew();
        for (int i = 0; i < count; i++) {
            VectorValues.setNull(target, i);
        }
        target.setValueCount(count);
        return target;
    }

    /** Rows {@code indices[0..count)} of every column of {@code batch}. */
    public static VectorSchemaRoot take(VectorSchemaRoot batch, int[] indices, int count, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(batch.getFieldVectors().size());
        try {
            for (FieldVector vector : batch.getFieldVectors()) {
                vectors.add(take(vector, indices, count, allocator));
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new VectorSchemaRoot(batch.getSchema().getFields(), vectors, count);
    }

    /** Rows {@code indices[0..count)} of every column, under a given schema (names may differ). */
    public static VectorSchemaRoot take(Schema schema, VectorSchemaRoot batch, int[] indices, int count, BufferAllocator allocator) {
        VectorSchemaRoot taken = take(batch, indices, count, allocator);
        List<FieldVector> vectors = new ArrayList<>(taken.getFieldVectors());
        return new VectorSchemaRoot(schema.getFields(), vectors, count);
    }

    private static void allocate(FieldVector target, int count, ValueVector source, int[] indices) {
        if (target instanceof BaseVariableWidthVector variable && source instanceof BaseVariableWidthVector sourceVariable) {
            long bytes = 0;
            for (int i = 0; i < count; i++) {
                int index = indices[i];
                if (index >= 0 && !sourceVariable.isNull(index)) {
                    bytes += sourceVariable.getValueLength(index);
                }
            }
            variable.allocateNew(Math.max(bytes, 1), Math.max(count, 1));
        } else if (target instanceof BaseFixedWidthVector fixed) {
            fixed.allocateNew(Math.max(count, 1));
        } else {
            target.setInitialCapacity(Math.max(count, 1));
            target.allocateNew();
        }
    }
}
