package dev.quiver.engine.operator.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.metrics.PartitionMetrics;
import dev.quiver.engine.operator.exchange.BatchConcat;
import dev.quiver.engine.operator.exchange.PartitionSplit;
import dev.quiver.engine.spill.PartitionedSpillWriter;
import dev.quiver.engine.spill.SpillFile;
import dev.quiver.engine.spill.SpillMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One side of a grace hash join split into {@link SpillHash#FAN_OUT} spill files by the spill
 * partition of each row's key at one split level. Each partition's pieces are gathered up to the
 * batch size before they are written: pieces of an eighth of a batch would make many small IPC
 * batches, each compressed buffer by buffer. Those few pending pieces are not reserved in the
 * pool, as a writer's buffers are not. Files are opened when their first row arrives;
 * {@link #finish()} gives one (possibly empty, then absent) file per partition and adds them to the
 * spill counters; {@link #close()} before that deletes whatever was written.
 *
 * <p>Used by one thread.
 */
final class SpillPartitions implements AutoCloseable {
    private final PartitionedSpillWriter files;
    private final int level;
    private final SpillHash hash;
    private final TaskContext context;
    private final PartitionMetrics metrics;
    private final boolean[] dropped;
    private final List<BatchConcat> pending = new ArrayList<>(SpillHash.FAN_OUT);
    private boolean done;

    /**
     * @param dropped partitions whose rows are not written (they cannot contribute to the join's
     *     output, e.g. probe rows of an inner join whose build partition is empty); null for none
     */
    SpillPartitions(String consumer, Schema schema, int level, SpillHash hash, boolean[] dropped, TaskContext context,
            PartitionMetrics metrics) {
        this.level = level;
        this.hash = requireNonNull(hash, "hash is null");
        this.context = requireNonNull(context, "context is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.dropped = dropped == null ? new boolean[SpillHash.FAN_OUT] : dropped.clone();
        this.files = new PartitionedSpillWriter(context.spillDirectory(), requireNonNull(consumer, "consumer is null") + "-level" + level,
                requireNonNull(schema, "schema is null"), SpillHash.FAN_OUT);
        for (int p = 0; p < SpillHash.FAN_OUT; p++) {
            pending.add(new BatchConcat(context.allocator(), context.batchSize()));
        }
    }

    /** Writes each row of {@code batch} (which the caller still owns) to its partition's file. */
    void add(VectorSchemaRoot batch) {
        if (batch.getRowCount() == 0) {
            return;
        }
        context.checkCancelled();
        long started = System.nanoTime();
        addSplit(batch);
        metrics.addElapsedCompute(System.nanoTime() - started);
    }

    private void addSplit(VectorSchemaRoot batch) {
        PartitionSplit split = PartitionSplit.of(hash.partitions(batch, level, context.allocator()), SpillHash.FAN_OUT);
        for (int p = 0; p < SpillHash.FAN_OUT; p++) {
            if (split.count(p) == 0 || dropped[p]) {
                continue;
            }
            VectorSchemaRoot ready = pending.get(p).add(split.take(batch, p, context.allocator()));
            if (ready != null) {
                write(p, ready);
            }
        }
    }

    private void write(int partition, VectorSchemaRoot batch) {
        try (batch) {
            files.write(partition, batch);
        }
    }

    /** The file of each partition, null where no row went; the caller owns (and deletes) them. */
    List<SpillFile> finish() {
        for (int p = 0; p < SpillHash.FAN_OUT; p++) {
            VectorSchemaRoot rest = pending.get(p).flush();
            if (rest != null) {
                write(p, rest);
            }
        }
        List<SpillFile> finished = files.finish();
        finished.stream().filter(Objects::nonNull).forEach(file -> SpillMetrics.record(metrics, file));
        done = true;
        pending.forEach(BatchConcat::close);
        return finished;
    }

    /** Deletes the files unless {@link #finish() finished}. */
    @Override
    public void close() {
        if (done) {
            return;
        }
        done = true;
        pending.forEach(BatchConcat::close);
        files.close();
    }
}
