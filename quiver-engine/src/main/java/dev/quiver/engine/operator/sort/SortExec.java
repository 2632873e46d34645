package dev.quiver.engine.operator.sort;

import dev.quiver.engine.execution.PlanChecks;
import dev.quiver.engine.operator.limit.LimitStatistics;
import dev.quiver.engine.spill.SpillMetrics;
import dev.quiver.engine.stats.Statistics;
import java.util.OptionalInt;
import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.error.ResourcesExhaustedException;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.memory.MemoryReservation;
import dev.quiver.engine.metrics.PartitionMetrics;
import dev.quiver.engine.spill.SpillFile;
import dev.quiver.engine.spill.SpillWriter;
import java.util.ArrayList;
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
 * <p>A partition collects its input's batches, holding their bytes (and what sorting them will
 * need) in a reservation named {@code SortExec[partition=N]}, sorts (batch, row) numbers by
 * type-specialised comparisons of the keys copied to arrays, and emits batches of the batch size
 * gathered in that order. When the pool refuses to hold another batch it sorts what it holds,
 * writes it to a spill file as a sorted run ({@code spill_enabled}, {@code spill_directory}) and
 * starts again empty; at the end it merges the runs ({@link SortedMerge}) instead, deleting each
 * file once read. With spilling disabled the query fails with ResourcesExhaustedException instead. Top-k compacts its buffer to
 * the first k rows whenever it holds a batch more than k, so it holds O(k + batch size) rows; after
 * a compaction, rows that do not sort before the current k-th row are dropped on arrival.
 */
public final class SortExec extends AbstractExecutionPlan {
    private final ExecutionPlan input;
    private final List<SortKey> keys;
    private final OptionalLong fetch;
    private final boolean preservePartitioning;

    /** Spilled runs merged at once; more are first merged in groups of this many into longer runs. */
    static final int MAX_MERGE_FAN_IN = 32;

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
     * COLLECTING (the first {@code next()} drains the input) → EMITTING (sorted batches from memory)
     * or MERGING (the spilled runs merged) → DONE.
     */
    private final class SortStream implements BatchStream {
        private final BatchStream source;
        private final TaskContext context;
        private final PartitionMetrics partitionMetrics;
        private final MemoryReservation reservation;
        private final boolean spill;
        private final SortBuffer buffer;
        /** Spilled sorted runs not yet being merged, in the order they were made. */
        private final List<SpillFile> runs = new ArrayList<>();
        private State state = State.COLLECTING;
        private SortBuffer.Sorted sorted;
        private SortedMerge merge;
        private int emitted;
        private int limit;
        /** Bytes of the largest batch written to a run: what merging holds per run. */
        private long largestRunBatch;

        SortStream(BatchStream source, int partition, TaskContext context) {
            this.source = source;
            this.context = context;
            this.partitionMetrics = metrics().partition(partition);
            String consumer = "SortExec[partition=" + partition + "]";
            // top-k holds O(k) rows: spilling is for full sorts
            this.spill = fetch.isEmpty() && context.setting(EngineSettings.SPILL_ENABLED);
            this.reservation = spill ? context.memoryPool().newSpillableReservation(consumer) : context.memoryPool().newReservation(consumer);
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
            if (state == State.MERGING) {
                return nextMerged();
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

        /**
         * Drains the input into the buffer, spilling it as a sorted run whenever the pool refuses
         * more, then sorts what is held (or merges the runs); elapsed_compute counts this operator's
         * work, not the input's.
         */
        private void collect() {
            long compute = 0;
            int topK = fetch.isPresent() ? (int) Math.min(fetch.getAsLong(), Integer.MAX_VALUE - 1) : -1;
            if (topK != 0) {
                VectorSchemaRoot batch;
                while ((batch = source.next()) != null) {
                    long start = System.nanoTime();
                    if (topK > 0) {
                        buffer.addTopK(batch, topK, context.batchSize());
                    } else if (spill) {
                        addOrSpill(batch);
                    } else {
                        buffer.add(batch);
                    }
                    compute += System.nanoTime() - start;
                    context.checkCancelled();
                }
            }
            source.close();
            long start = System.nanoTime();
            if (runs.isEmpty()) {
                sorted = buffer.sort();
                limit = topK >= 0 ? Math.min(topK, sorted.size()) : sorted.size();
                state = State.EMITTING;
            } else {
                if (!buffer.isEmpty()) {
                    spillRun();
                }
                startMerge();
                state = State.MERGING;
            }
            partitionMetrics.recordMemory(reservation.peak());
            partitionMetrics.addElapsedCompute(compute + System.nanoTime() - start);
        }

        private void addOrSpill(VectorSchemaRoot batch) {
            if (buffer.tryAdd(batch)) {
                return;
            }
            if (!buffer.isEmpty()) {
                try {
                    spillRun();
                } catch (RuntimeException | Error e) {
                    batch.close();
                    throw e;
                }
                if (buffer.tryAdd(batch)) {
                    return;
                }
            }
            long needed = buffer.bytesToAdd(batch);
            int rows = batch.getRowCount();
            batch.close();
            MemoryPool pool = context.memoryPool();
            throw new ResourcesExhaustedException(reservation.consumer(), needed, pool.used(), pool.limit(),
                    "; spilling cannot help: one input batch of " + rows + " rows does not fit in what this sort may hold"
                            + " (its share of the pool); lower batch_size or raise memory_limit");
        }

        /** Sorts what the buffer holds, writes it to a spill file as one run, and empties the buffer. */
        private void spillRun() {
            SortBuffer.Sorted order = buffer.sort();
            try (SpillWriter writer = context.spillDirectory().newFile(reservation.consumer(), input.schema())) {
                for (int from = 0; from < order.size(); from += context.batchSize()) {
                    context.checkCancelled();
                    try (VectorSchemaRoot chunk = buffer.take(order, from, Math.min(context.batchSize(), order.size() - from))) {
                        writer.write(chunk);
                        largestRunBatch = Math.max(largestRunBatch, Batches.sizeInBytes(chunk));
                    }
                }
                SpillFile run = writer.finish();
                runs.add(run);
                SpillMetrics.record(partitionMetrics, run);
            }
            buffer.clear();
        }

        /**
         * Merges the runs into the stream the output is read from, first merging groups of them into
         * longer runs while there are more than the free memory can hold a batch of each of (or more
         * than {@link #MAX_MERGE_FAN_IN}).
         */
        private void startMerge() {
            int fanIn = mergeFanIn();
            while (runs.size() > fanIn) {
                List<SpillFile> group = new ArrayList<>(runs.subList(0, fanIn));
                runs.subList(0, fanIn).clear();
                try (SortedMerge partial = openMerge(group);
                        SpillWriter writer = context.spillDirectory().newFile(reservation.consumer(), input.schema())) {
                    for (VectorSchemaRoot batch = partial.next(context.batchSize()); batch != null; batch = partial.next(context.batchSize())) {
                        try (VectorSchemaRoot written = batch) {
                            writer.write(written);
                        }
                        context.checkCancelled();
                    }
                    // the merged run holds the earliest rows of equal keys: it goes first, keeping the sort stable
                    runs.add(0, writer.finish());
                }
            }
            List<SpillFile> all = new ArrayList<>(runs);
            runs.clear();
            merge = openMerge(all);
        }

        /**
         * Runs merged at once: a batch of each, and its key columns, must fit in what this sort may
         * still take, its share of the pool rather than all that is free, so that a partition merging
         * cannot starve another that is still collecting.
         */
        private int mergeFanIn() {
            long perRun = Math.max(1, 2 * largestRunBatch);
            return (int) Math.max(2, Math.min(MAX_MERGE_FAN_IN, reservation.headroom() / perRun));
        }

        /** A merge of {@code group}, whose files it deletes when closed (those it could not open are deleted here). */
        private SortedMerge openMerge(List<SpillFile> group) {
            List<BatchStream> streams = new ArrayList<>(group.size());
            try {
                for (SpillFile run : group) {
                    streams.add(run.open(context.allocator()));
                }
            } catch (RuntimeException e) {
                streams.forEach(BatchStream::close);
                group.subList(streams.size(), group.size()).forEach(SpillFile::delete);
                throw e;
            }
            return new SortedMerge(input.schema(), keys, streams, context.allocator(), reservation);
        }

        private VectorSchemaRoot nextMerged() {
            long start = System.nanoTime();
            context.checkCancelled();
            VectorSchemaRoot batch = merge.next(context.batchSize());
            partitionMetrics.addElapsedCompute(System.nanoTime() - start);
            if (batch == null) {
                close();
            }
            return batch;
        }

        @Override
        public void close() {
            if (state == State.DONE) {
                return;
            }
            state = State.DONE;
            try {
                source.close();
                if (merge != null) {
                    merge.close();
                }
                runs.forEach(SpillFile::delete);
                runs.clear();
            } finally {
                buffer.close();
                partitionMetrics.recordMemory(reservation.peak());
                reservation.close();
            }
        }
    }

    private enum State {
        COLLECTING,
        EMITTING,
        MERGING,
        DONE
    }
}
