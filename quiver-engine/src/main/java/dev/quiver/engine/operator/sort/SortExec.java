package dev.quiver.engine.operator.sort;

import dev.quiver.engine.execution.PlanChecks;
import dev.quiver.engine.operator.limit.LimitStatistics;
import dev.quiver.engine.stats.Statistics;
import java.util.OptionalInt;
import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryReservation;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.List;
import java.util.OptionalLong;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Sorts by {@code keys}. With {@code fetch} it keeps only the first {@code fetch} rows (top-k, a
 * bounded heap). With {@code preservePartitioning} each partition is sorted on its own (a
 * {@link dev.quiver.engine.operator.exchange.SortPreservingMergeExec} merges them); otherwise the
 * input must have one partition.
 *
 * <p>A partition collects its input's batches, holding their bytes in a reservation named
 * {@code SortExec[partition=N]} (the query fails with ResourcesExhaustedException when the pool
 * says no), sorts (batch, row) numbers by type-specialised comparisons of the keys copied to
 * arrays, and emits batches of the batch size gathered in that order. Top-k compacts its buffer to
 * the first k rows whenever it holds a batch more than k, so it holds O(k + batch size) rows; after
 * a compaction, rows that do not sort before the current k-th row are dropped on arrival.
 */
public final class SortExec extends AbstractExecutionPlan {
    private final ExecutionPlan input;
    private final List<SortKey> keys;
    private final OptionalLong fetch;
    private final boolean preservePartitioning;

    public SortExec(ExecutionPlan input, List<SortKey> keys, OptionalLong fetch, boolean preservePartitioning) {
        this.input = requireNonNull(input, "input is null");
        this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
        this.fetch = requireNonNull(fetch, "fetch is null");
        this.preservePartitioning = preservePartitioning;
        PlanChecks.checkArgument(!keys.isEmpty(), "SortExec", "needs at least one key");
        PlanChecks.checkArgument(preservePartitioning || input.outputPartitioning().partitionCount() == 1, "SortExec",
                "without preservePartitioning needs a single-partition input, not %s partitions", input.outputPartitioning().partitionCount());
    }

    public List<SortKey> keys() {
        return keys;
    }

    public OptionalLong fetch() {
        return fetch;
    }

    public boolean preservePartitioning() {
        return preservePartitioning;
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public Partitioning outputPartitioning() {
        return preservePartitioning ? new Partitioning.Unknown(input.outputPartitioning().partitionCount()) : Partitioning.single();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new SortExec(children.get(0), keys, fetch, preservePartitioning);
    }

    @Override
    public String displayLine() {
        return (fetch.isPresent() ? "SortExec: TopK(fetch=" + fetch.getAsLong() + "), [" : "SortExec: [")
                + keys.stream().map(SortKey::display).collect(java.util.stream.Collectors.joining(", ")) + "]"
                + (preservePartitioning ? ", preserve_partitioning=true" : "");
    }

    @Override
    public String name() {
        return "SortExec";
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        return LimitStatistics.limited(input.partitionStatistics(preservePartitioning ? partition : OptionalInt.empty()), 0, fetch);
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        BatchStream source = input.execute(partition, context);
        return new MeteredBatchStream(new SortStream(source, partition, context), metrics().partition(partition), context);
    }

    /**
     * COLLECTING (first {@code next()} drains the input) → EMITTING (sorted batches) → DONE.
     */
    private final class SortStream implements BatchStream {
        private final BatchStream source;
        private final TaskContext context;
        private final PartitionMetrics partitionMetrics;
        private final MemoryReservation reservation;
        private final SortBuffer buffer;
        private State state = State.COLLECTING;
        private SortBuffer.Sorted sorted;
        private int emitted;
        private int limit;

        SortStream(BatchStream source, int partition, TaskContext context) {
            this.source = source;
            this.context = context;
            this.partitionMetrics = metrics().partition(partition);
            this.reservation = context.memoryPool().newReservation("SortExec[partition=" + partition + "]");
            this.buffer = new SortBuffer(input.schema(), keys, context.allocator(), reservation);
        }

        @Override
        public Schema schema() {
            return input.schema();
        }

        @Override
        public VectorSchemaRoot next() {
            if (state == State.COLLECTING) {
                collect();
            }
            if (state != State.EMITTING) {
                return null;
            }
            if (emitted >= limit) {
                close();
                partitionMetrics.setPendingOutputRows(0);
                return null;
            }
            long start = System.nanoTime();
            int count = Math.min(context.batchSize(), limit - emitted);
            VectorSchemaRoot batch = buffer.take(sorted, emitted, count);
            emitted += count;
            partitionMetrics.setPendingOutputRows(limit - emitted);
            partitionMetrics.addElapsedCompute(System.nanoTime() - start);
            return batch;
        }

        /** Drains the input into the buffer and sorts it; elapsed_compute counts this operator's work, not the input's. */
        private void collect() {
            long compute = 0;
            int topK = fetch.isPresent() ? (int) Math.min(fetch.getAsLong(), Integer.MAX_VALUE - 1) : -1;
            if (topK != 0) {
                VectorSchemaRoot batch;
                while ((batch = source.next()) != null) {
                    long start = System.nanoTime();
                    if (topK > 0) {
                        buffer.addTopK(batch, topK, context.batchSize());
                    } else {
                        buffer.add(batch);
                    }
                    compute += System.nanoTime() - start;
                    context.checkCancelled();
                }
            }
            source.close();
            long start = System.nanoTime();
            sorted = buffer.sort();
            limit = topK >= 0 ? Math.min(topK, sorted.size()) : sorted.size();
            partitionMetrics.recordMemory(reservation.peak());
            partitionMetrics.addElapsedCompute(compute + System.nanoTime() - start);
            state = State.EMITTING;
        }

        @Override
        public void close() {
            if (state == State.DONE) {
                return;
            }
            state = State.DONE;
            source.close();
            buffer.close();
            partitionMetrics.recordMemory(reservation.peak());
            reservation.close();
        }
    }

    private enum State {
        COLLECTING,
        EMITTING,
        DONE
    }
}
