package dev.quiver.engine.operator.join;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.batch.OverwriteAllocation;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.memory.MemoryReservation;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Concatenates the collected build batches into one batch, so that a build row is one {@code int}
 * and the output is a plain gather ({@link dev.quiver.engine.batch.Take}) from one vector per column.
 *
 * <p>Works column by column and closes each column of the inputs as soon as it is copied, so the
 * memory held at once is the inputs plus one column, not twice the inputs. The reservation follows.
 */
final class BatchConcat {
    private BatchConcat() {}

    /** One batch of all rows of {@code batches}, which it closes (also on failure). */
    static VectorSchemaRoot concat(Schema schema, List<VectorSchemaRoot> batches, MemoryReservation reservation, BufferAllocator allocator) {
        if (batches.isEmpty()) {
            return Batches.empty(schema, allocator);
        }
        if (batches.size() == 1) {
            return batches.get(0);
        }
        long totalRows = 0;
        for (VectorSchemaRoot batch : batches) {
            totalRows += batch.getRowCount();
        }
        if (totalRows > Integer.MAX_VALUE - 1) {
            batches.forEach(VectorSchemaRoot::close);
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "join build side has " + totalRows + " rows; at most " + (Integer.MAX_VALUE - 1) + " are supported");
        }
        int rows = (int) totalRows;
        List<FieldVector> columns = new ArrayList<>(schema.getFields().size());
        try {
            for (int c = 0; c < schema.getFields().size(); c++) {
                long sourceBytes = 0;
                for (VectorSchemaRoot batch : batches) {
                    sourceBytes += batch.getVector(c).getBufferSize();
                }
                reservation.grow(sourceBytes);
                FieldVector target = batches.get(0).getVector(c).getField().createVector(allocator);
                columns.add(target);
                concatColumn(target, batches, c, rows);
                for (VectorSchemaRoot batch : batches) {
                    batch.getVector(c).close();
                }
                reservation.shrink(sourceBytes);
                reservation.resize(reservation.size() + target.getBufferSize() - sourceBytes);
            }
            return new VectorSchemaRoot(schema.getFields(), columns, rows);
        } catch (RuntimeException | Error e) {
            columns.forEach(FieldVector::close);
            throw e;
        } finally {
            batches.forEach(VectorSchemaRoot::close);
        }
    }

    private static void concatColumn(FieldVector target, List<VectorSchemaRoot> batches, int column, int rows) {
        if (target instanceof BaseVariableWidthVector variable) {
            long dataBytes = 0;
            for (VectorSchemaRoot batch : batches) {
                BaseVariableWidthVector source = (BaseVariableWidthVector) batch.getVector(column);
                int count = source.getValueCount();
                if (count > 0) {
                    dataBytes += source.getOffsetBuffer().getInt(4L * count) - source.getOffsetBuffer().getInt(0);
                }
            }
            if (dataBytes > Integer.MAX_VALUE) {
                throw new QuiverException(ErrorCode.NOT_SUPPORTED, "join build side column " + target.getName() + " holds "
                        + dataBytes + " bytes; one column can hold at most 2 GiB");
            }
            variable.allocateNew(Math.max(dataBytes, 1), Math.max(rows, 1));
            appendVariable(variable, batches, column);
        } else if (target instanceof BaseFixedWidthVector fixed && !(target instanceof BitVector)) {
            // appendFixed copies every value
            OverwriteAllocation.allocate(fixed, rows);
            appendFixed(fixed, batches, column);
        } else {
            target.setInitialCapacity(Math.max(rows, 1));
            target.allocateNew();
            int position = 0;
            for (VectorSchemaRoot batch : batches) {
                FieldVector source = batch.getVector(column);
                for (int i = 0; i < source.getValueCount(); i++) {
                    target.copyFromSafe(i, position++, source);
                }
            }
        }
        target.setValueCount(rows);
    }

    private static void appendFixed(BaseFixedWidthVector target, List<VectorSchemaRoot> batches, int column) {
        int width = target.getTypeWidth();
        int position = 0;
        for (VectorSchemaRoot batch : batches) {
            BaseFixedWidthVector source = (BaseFixedWidthVector) batch.getVector(column);
            int count = source.getValueCount();
            target.getDataBuffer().setBytes((long) position * width, source.getDataBuffer(), 0, (long) count * width);
            copyValidity(source, target, position, count);
            position += count;
        }
    }

    private static void appendVariable(BaseVariableWidthVector target, List<VectorSchemaRoot> batches, int column) {
        ArrowBuf targetOffsets = target.getOffsetBuffer();
        ArrowBuf targetData = target.getDataBuffer();
        int position = 0;
        int dataEnd = 0;
        targetOffsets.setInt(0, 0);
        for (VectorSchemaRoot batch : batches) {
            BaseVariableWidthVector source = (BaseVariableWidthVector) batch.getVector(column);
            int count = source.getValueCount();
            if (count == 0) {
                continue;
            }
            ArrowBuf offsets = source.getOffsetBuffer();
            int first = offsets.getInt(0);
            int last = offsets.getInt(4L * count);
            targetData.setBytes(dataEnd, source.getDataBuffer(), first, last - first);
            int shift = dataEnd - first;
            for (int i = 1; i <= count; i++) {
                targetOffsets.setInt(4L * (position + i), offsets.getInt(4L * i) + shift);
            }
            copyValidity(source, target, position, count);
            position += count;
            dataEnd += last - first;
        }
        // setValueCount fills "holes" after the last set index; every index is set here.
        target.setLastSet(position - 1);
    }

    private static void copyValidity(FieldVector source, FieldVector target, int position, int count) {
        ArrowBuf validity = target.getValidityBuffer();
        if (source.getNullCount() == 0) {
            for (int i = 0; i < count; i++) {
                BitVectorHelper.setBit(validity, position + i);
            }
            return;
        }
        for (int i = 0; i < count; i++) {
            if (!source.isNull(i)) {
                BitVectorHelper.setBit(validity, position + i);
            }
        }
    }
}
