package dev.quiver.engine.operator.exchange;

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
import dev.quiver.engine.operator.sort.MultiTake;
import dev.quiver.engine.operator.sort.RowComparator;
import dev.quiver.engine.operator.sort.SortKey;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Merges input partitions, each sorted by {@code keys}, into one sorted partition; optionally stops
 * after {@code fetch} rows.
 *
 * <p>Each input partition is driven by its own thread into a small prefetch queue, so that a slow
 * input does not stall the others' producers; the consumer merges the heads of the queues with a
 * heap of cursors and gathers each output batch from the input batches it drew rows from.
 */
public final class SortPreservingMergeExec extends AbstractExecutionPlan {
    private final ExecutionPlan input;
    private final List<SortKey> keys;
    private final OptionalLong fetch;

    /** Batches each input partition may have ready ahead of the merge. */
    private static final int PREFETCH_BATCHES = 2;

    public SortPreservingMergeExec(ExecutionPlan input, List<SortKey> keys, OptionalLong fetch) {
        this.input = requireNonNull(input, "input is null");
        this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
        this.fetch = requireNonNull(fetch, "fetch is null");
    }

    public List<SortKey> keys() {
        return keys;
    }

    public OptionalLong fetch() {
        return fetch;
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
        return Partitioning.single();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new SortPreservingMergeExec(children.get(0), keys, fetch);
    }

    @Override
    public String displayLine() {
        return "SortPreservingMergeExec: [" + keys.stream().map(SortKey::display).collect(java.util.stream.Collectors.joining(", ")) + "]"
                + (fetch.isPresent() ? ", fetch=" + fetch.getAsLong() : "");
    }

    @Override
    public String name() {
        return "SortPreservingMergeExec";
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        return LimitStatistics.limited(input.partitionStatistics(OptionalInt.empty()), 0, fetch);
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        return new MeteredBatchStream(new MergeStream(context), metrics().partition(partition), context);
    }

    /** The current batch of one input partition and the position of its next row. */
    private final class Cursor {
        final int input;
        final BatchChannel channel;
        final List<FieldVector> ownedKeys = new ArrayList<>();
        VectorSchemaRoot batch;
        RowComparator comparator;
        int position;
        int chunkIndex = -1;

        Cursor(int input, BatchChannel channel) {
            this.input = input;
            this.channel = channel;
        }

        /** Moves to the input's next batch; false at its end. */
        boolean advance(TaskContext context) {
            VectorSchemaRoot next;
            while ((next = channel.receive(context)) != null) {
                if (next.getRowCount() == 0) {
                    next.close();
                    continue;
                }
                batch = next;
                position = 0;
                chunkIndex = -1;
                comparator = RowComparator.build(keys, List.of(RowComparator.keyVectors(keys, next, context.allocator(), ownedKeys)));
                return true;
            }
            return false;
        }

        int compareTo(Cursor other) {
            int result = comparator.compare(position, other.comparator, other.position);
            return result != 0 ? result : Integer.compare(input, other.input);
        }

        /** Hands the current batch and its owned key vectors to {@code retired}, to close after the chunk is gathered. */
        void retire(List<AutoCloseable> retired) {
            retired.add(batch);
            retired.addAll(ownedKeys);
            ownedKeys.clear();
            batch = null;
            comparator = null;
        }

        void close() {
            ownedKeys.forEach(FieldVector::close);
            ownedKeys.clear();
            if (batch != null) {
                batch.close();
                batch = null;
            }
            channel.close();
        }
    }

    private final class MergeStream implements BatchStream {
        private final TaskContext context;
        private final ProducerGroup producers = new ProducerGroup();
        private final List<Cursor> cursors = new ArrayList<>();
        private final PriorityQueue<Cursor> heap = new PriorityQueue<>(Cursor::compareTo);
        private final List<VectorSchemaRoot> chunkBatches = new ArrayList<>();
        private final List<AutoCloseable> retired = new ArrayList<>();
        private long remaining;
        private boolean started;
        private boolean closed;

        MergeStream(TaskContext context) {
            this.context = context;
            this.remaining = fetch.isPresent() ? fetch.getAsLong() : Long.MAX_VALUE;
        }

        @Override
        public Schema schema() {
            return input.schema();
        }

        @Override
        public VectorSchemaRoot next() {
            if (closed) {
                return null;
            }
            if (!started) {
                start();
            }
            int target = (int) Math.min(context.batchSize(), remaining);
            if (target == 0 || heap.isEmpty()) {
                close();
                return null;
            }
            int[] batchOf = new int[target];
            int[] rowOf = new int[target];
            int rows = 0;
            chunkBatches.clear();
            while (rows < target && !heap.isEmpty()) {
                Cursor cursor = heap.poll();
                if (cursor.chunkIndex < 0) {
                    cursor.chunkIndex = chunkBatches.size();
                    chunkBatches.add(cursor.batch);
                }
                batchOf[rows] = cursor.chunkIndex;
                rowOf[rows] = cursor.position;
                rows++;
                cursor.position++;
                if (cursor.position < cursor.batch.getRowCount()) {
                    heap.add(cursor);
                } else {
                    cursor.retire(retired);
                    if (cursor.advance(context)) {
                        heap.add(cursor);
                    }
                }
            }
            try {
                VectorSchemaRoot result = MultiTake.take(input.schema(), chunkBatches, batchOf, rowOf, 0, rows, context.allocator());
                remaining -= rows;
                return result;
            } finally {
                chunkBatches.clear();
                for (Cursor cursor : cursors) {
                    cursor.chunkIndex = -1;
                }
                closeRetired();
            }
        }

        private void start() {
            started = true;
            int inputs = input.outputPartitioning().partitionCount();
            for (int i = 0; i < inputs; i++) {
                BatchChannel channel = new BatchChannel(PREFETCH_BATCHES, 1);
                cursors.add(new Cursor(i, channel));
                producers.start(context, "merge-" + context.taskId() + "-p" + i, new ChannelProducer(input, i, context, channel));
            }
            if (remaining == 0) {
                return;
            }
            for (Cursor cursor : cursors) {
                if (cursor.advance(context)) {
                    heap.add(cursor);
                }
            }
        }

        private void closeRetired() {
            for (AutoCloseable resource : retired) {
                try {
                    resource.close();
                } catch (Exception e) {
                    throw BatchChannel.asRuntime(e);
                }
            }
            retired.clear();
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            heap.clear();
            closeRetired();
            cursors.forEach(Cursor::close);
            producers.awaitAll();
        }
    }
}
