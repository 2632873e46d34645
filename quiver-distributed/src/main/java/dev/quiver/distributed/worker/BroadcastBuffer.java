package dev.quiver.distributed.worker;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryReservation;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One output partition of a broadcast producer task, run once and kept so that it can be replayed
 * to each consumer task. What it holds is reserved in the worker's memory pool; a partition that
 * does not fit fails the task with EXCEEDED_MEMORY_LIMIT naming it. Replays share the buffers by
 * reference count.
 */
final class BroadcastBuffer implements AutoCloseable {
    private final ExecutionPlan plan;
    private final int partition;
    private final TaskContext context;
    private final MemoryReservation reservation;
    private final List<VectorSchemaRoot> batches = new ArrayList<>();
    private boolean filled;
    private RuntimeException failure;
    private boolean closed;

    BroadcastBuffer(ExecutionPlan plan, int partition, TaskContext context) {
        this.plan = plan;
        this.partition = partition;
        this.context = context;
        this.reservation = context.memoryPool().newReservation("broadcast buffer " + context.taskId() + " partition " + partition);
    }

    /** A stream replaying the partition; the first replay runs it (others wait for it). */
    BatchStream replay() {
        return new BatchStream() {
            private int next = -1;
            private boolean done;

            @Override
            public Schema schema() {
                return plan.schema();
            }

            @Override
            public VectorSchemaRoot next() {
                if (done) {
                    return null;
                }
                context.checkCancelled();
                return share(++next);
            }

            @Override
            public void close() {
                done = true;
            }
        };
    }

    private synchronized VectorSchemaRoot share(int index) {
        fill();
        if (index >= batches.size()) {
            return null;
        }
        VectorSchemaRoot batch = batches.get(index);
        VectorSchemaRoot shared = VectorSchemaRoot.create(batch.getSchema(), context.allocator());
        try (ArrowRecordBatch record = new VectorUnloader(batch).getRecordBatch()) {
            new VectorLoader(shared).load(record);
        } catch (RuntimeException e) {
            shared.close();
            throw e;
        }
        return shared;
    }

    private void fill() {
        if (closed) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "broadcast partition " + partition + " of " + context.taskId() + " was already released");
        }
        if (failure != null) {
            throw failure;
        }
        if (filled) {
            return;
        }
        try (BatchStream stream = plan.execute(partition, context)) {
            VectorSchemaRoot batch;
            while ((batch = stream.next()) != null) {
                if (batch.getRowCount() == 0) {
                    batch.close();
                    continue;
                }
                try {
                    reservation.grow(Batches.sizeInBytes(batch));
                } catch (RuntimeException e) {
                    batch.close();
                    throw e;
                }
                batches.add(batch);
            }
            filled = true;
        } catch (RuntimeException e) {
            failure = e;
            release();
            throw e;
        }
    }

    private void release() {
        batches.forEach(VectorSchemaRoot::close);
        batches.clear();
        reservation.free();
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            release();
            reservation.close();
        }
    }
}
