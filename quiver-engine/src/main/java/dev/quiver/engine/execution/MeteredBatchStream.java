package dev.quiver.engine.execution;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.metrics.PartitionMetrics;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Counts the rows and bytes of the batches leaving an operator partition as they flow, so that
 * {@code output_rows} is live, records when the partition reaches its end of stream, and checks
 * for cancellation between batches.
 */
public final class MeteredBatchStream implements BatchStream {
    private final BatchStream inner;
    private final PartitionMetrics metrics;
    private final TaskContext context;

    public MeteredBatchStream(BatchStream inner, PartitionMetrics metrics, TaskContext context) {
        this.inner = requireNonNull(inner, "inner is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.context = requireNonNull(context, "context is null");
    }

    /**
     * Like the constructor, for a stream whose batches other threads or processes produce (a remote
     * stage's input): the time its {@code next()} takes is counted as the partition's wait
     * ({@link PartitionMetrics#addWait}), not as compute.
     */
    public static MeteredBatchStream waitingOn(BatchStream inner, PartitionMetrics metrics, TaskContext context) {
        return new MeteredBatchStream(new WaitTimed(requireNonNull(inner, "inner is null"), metrics), metrics, context);
    }

    @Override
    public Schema schema() {
        return inner.schema();
    }

    @Override
    public VectorSchemaRoot next() {
        context.checkCancelled();
        VectorSchemaRoot batch = inner.next();
        if (batch != null) {
            metrics.recordOutput(batch.getRowCount(), Batches.sizeInBytes(batch));
        } else {
            metrics.recordEndOfStream();
        }
        return batch;
    }

    @Override
    public void close() {
        inner.close();
    }

    private record WaitTimed(BatchStream inner, PartitionMetrics metrics) implements BatchStream {
        @Override
        public Schema schema() {
            return inner.schema();
        }

        @Override
        public VectorSchemaRoot next() {
            long start = System.nanoTime();
            try {
                return inner.next();
            } finally {
                metrics.addWait(System.nanoTime() - start);
            }
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
