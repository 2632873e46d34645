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
}
