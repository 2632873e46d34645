package dev.quiver.engine.operator.exchange;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.batch.OverwriteAllocation;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.VectorSchemaRootAppender;

/**
 * Gathers small batches into batches of about a target row count, so that scattering a batch
 * into many partitions does not hand tiny batches to the operators downstream (or to spill
 * files, where each batch costs a message header and a compressed frame per buffer).
 */
public final class BatchConcat implements AutoCloseable {
    private final BufferAllocator allocator;
    private final int targetRows;
    private final List<VectorSchemaRoot> pending = new ArrayList<>();
    private int pendingRows;
    private long pendingBytes;

    public BatchConcat(BufferAllocator allocator, int targetRows) {
        this.allocator = allocator;
        this.targetRows = targetRows;
    }

    /** Takes ownership of {@code batch}; returns a batch of at least the target size when one is ready. */
    public VectorSchemaRoot add(VectorSchemaRoot batch) {
        if (batch.getRowCount() == 0) {
            batch.close();
            return null;
        }
        if (pending.isEmpty() && batch.getRowCount() >= targetRows) {
            return batch;
        }
        pending.add(batch);
        pendingRows += batch.getRowCount();
        pendingBytes += Batches.sizeInBytes(batch);
        return pendingRows >= targetRows ? flush() : null;
    }

    /** Whatever is pending as one batch, or null. */
    public VectorSchemaRoot flush() {
        if (pending.isEmpty()) {
            return null;
        }
        try {
            return pending.size() == 1 ? pending.get(0) : concat(pending, allocator);
        } finally {
            if (pending.size() > 1) {
                pending.forEach(VectorSchemaRoot::close);
            }
            pending.clear();
            pendingRows = 0;
            pendingBytes = 0;
        }
    }

    public long pendingBytes() {
        return pendingBytes;
    }

    /** One batch holding the rows of {@code batches} in order; the inputs stay owned by the caller. */
    static VectorSchemaRoot concat(List<VectorSchemaRoot> batches, BufferAllocator allocator) {
        int total = 0;
        for (VectorSchemaRoot batch : batches) {
            total += batch.getRowCount();
        }
        VectorSchemaRoot target = VectorSchemaRoot.create(batches.get(0).getSchema(), allocator);
        try {
            for (FieldVector vector : target.getFieldVectors()) {
                if (vector instanceof BaseFixedWidthVector fixed) {
                    // the appender below writes every value
                    OverwriteAllocation.allocate(fixed, total);
                } else {
                    vector.setInitialCapacity(Math.max(total, 1));
                    vector.allocateNew();
                }
            }
            VectorSchemaRootAppender.append(false, target, batches.toArray(new VectorSchemaRoot[0]));
            return target;
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }

    @Override
    public void close() {
        pending.forEach(VectorSchemaRoot::close);
        pending.clear();
        pendingRows = 0;
        pendingBytes = 0;
    }
}
