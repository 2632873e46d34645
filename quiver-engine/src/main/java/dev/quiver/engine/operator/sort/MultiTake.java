package dev.quiver.engine.operator.sort;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Gathers rows chosen from several batches of one schema into a new batch: fixed-width values and
 * strings are copied buffer to buffer, other types value by value.
 */
public final class MultiTake {
    private MultiTake() {}

    /**
     * A batch of {@code count} rows: row {@code i} is row {@code rows[from + i]} of batch
     * {@code batchOf[from + i]} of {@code batches}.
     */
    public static VectorSchemaRoot take(Schema schema, List<VectorSchemaRoot> batches, int[] batchOf, int[] rows, int from, int count,
            BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(schema.getFields().size());
        try {
            for (int c = 0; c < schema.getFields().size(); c++) {
                FieldVector[] sources = new FieldVector[batches.size()];
                for (int b = 0; b < sources.length; b++) {
                    sources[b] = batches.get(b).getVector(c);
                }
                vectors.add(takeColumn(schema.getFields().get(c), sources, batchOf, rows, from, count, allocator));
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new VectorSchemaRoot(schema.getFields(), vectors, count);
    }

    private static FieldVector takeColumn(Field field, FieldVector[] sources, int[] batchOf, int[] rows, int from, int count,
            BufferAllocator allocator) {
        FieldVector target = field.createVector(allocator);
        try {
            if (target instanceof NullVector nulls) {
                nulls.setValueCount(count);
            } else if (target instanceof BaseFixedWidthVector fixed && !(target instanceof BitVector) && fixed.getTypeWidth() > 0) {
                takeFixed(fixed, sources, batchOf, rows, from, count);
            } else if (target instanceof VarCharVector strings) {
                takeStrings(strings, sources, batchOf, rows, from, count);
            } else {
                takeValues(target, sources, batchOf, rows, from, count);
            }
            return target;
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }

    private static void takeFixed(BaseFixedWidthVector target, FieldVector[] sources, int[] batchOf, int[] rows, int from, int count) {
        target.allocateNew(Math.max(count, 1));
        int width = target.getTypeWidth();
        ArrowBuf to = target.getDataBuffer();
        ArrowBuf validity = target.getValidityBuffer();
        ArrowBuf[] data = new ArrowBuf[sources.length];
        for (int b = 0; b < sources.length; b++) {
            data[b] = sources[b].getDataBuffer();
        }
        for (int k = 0; k < count; k++) {
            int batch = batchOf[from + k];
            int row = rows[from + k];
            if (sources[batch].isNull(row)) {
                continue;
            }
            BitVectorHelper.setBit(validity, k);
            long offset = (long) row * width;
            switch (width) {
                case 4 -> to.setInt((long) k * 4, data[batch].getInt(offset));
                case 8 -> to.setLong((long) k * 8, data[batch].getLong(offset));
                case 16 -> {
                    to.setLong((long) k * 16, data[batch].getLong(offset));
                    to.setLong((long) k * 16 + 8, data[batch].getLong(offset + 8));
                }
                default -> to.setBytes((long) k * width, data[batch], offset, width);
            }
        }
        target.setValueCount(count);
    }

    private static void takeStrings(VarCharVector target, FieldVector[] sources, int[] batchOf, int[] rows, int from, int count) {
        long bytes = 0;
        for (int k = 0; k < count; k++) {
            BaseVariableWidthVector source = (BaseVariableWidthVector) sources[batchOf[from + k]];
            int row = rows[from + k];
            if (!source.isNull(row)) {
                bytes += source.getValueLength(row);
            }
        }
        target.allocateNew(Math.max(bytes, 1), Math.max(count, 1));
        ArrowBuf targetOffsets = target.getOffsetBuffer();
        ArrowBuf targetData = target.getDataBuffer();
        ArrowBuf validity = target.getValidityBuffer();
        int end = 0;
        targetOffsets.setInt(0, 0);
        for (int k = 0; k < count; k++) {
            BaseVariableWidthVector source = (BaseVariableWidthVector) sources[batchOf[from + k]];
            int row = rows[from + k];
            if (!source.isNull(row)) {
                BitVectorHelper.setBit(validity, k);
                ArrowBuf offsets = source.getOffsetBuffer();
                int start = offsets.getInt((long) row * BaseVariableWidthVector.OFFSET_WIDTH);
                int length = offsets.getInt((long) (row + 1) * BaseVariableWidthVector.OFFSET_WIDTH) - start;
                targetData.setBytes(end, source.getDataBuffer(), start, length);
                end += length;
            }
            targetOffsets.setInt((long) (k + 1) * BaseVariableWidthVector.OFFSET_WIDTH, end);
        }
        target.setLastSet(count - 1);
        target.setValueCount(count);
    }

    private static void takeValues(FieldVector target, FieldVector[] sources, int[] batchOf, int[] rows, int from, int count) {
        if (target instanceof BaseVariableWidthVector variable) {
            long bytes = 0;
            for (int k = 0; k < count; k++) {
                BaseVariableWidthVector source = (BaseVariableWidthVector) sources[batchOf[from + k]];
                if (!source.isNull(rows[from + k])) {
                    bytes += source.getValueLength(rows[from + k]);
                }
            }
            variable.allocateNew(Math.max(bytes, 1), Math.max(count, 1));
        } else if (target instanceof BaseFixedWidthVector fixed) {
            fixed.allocateNew(Math.max(count, 1));
        } else {
            target.setInitialCapacity(Math.max(count, 1));
            target.allocateNew();
        }
        for (int k = 0; k < count; k++) {
            target.copyFromSafe(rows[from + k], k, sources[batchOf[from + k]]);
        }
        target.setValueCount(count);
    }
}
