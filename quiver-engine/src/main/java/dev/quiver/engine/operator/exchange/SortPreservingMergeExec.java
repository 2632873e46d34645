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
import dev.quiver.engine.operator.sort.SortKey;
import dev.quiver.engine.operator.sort.SortedMerge;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Merges input partitions, each sorted by {@code keys}, into one sorted partition; optionally stops
 * after {@code fetch} rows.
 *
 * <p>Each input partition is driven by its own thread into a small prefetch queue, so that a slow
 * input does not stall the others' producers; the consumer merges the heads of the queues with a
 * {@link SortedMerge}.
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

    private final class MergeStream implements BatchStream {
        private final TaskContext context;
        private final ProducerGroup producers = new ProducerGroup();
        private SortedMerge merge;
        private long remaining;
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
            if (merge == null) {
                start();
            }
            VectorSchemaRoot result = merge.next((int) Math.min(context.batchSize(), remaining));
            if (result == null) {
                close();
                return null;
            }
            remaining -= result.getRowCount();
            return result;
        }

        private void start() {
            List<BatchStream> opened = InputPartitions.open(input, context);
            List<BatchChannel> channels = new ArrayList<>(opened.size());
            List<BatchStream> received = new ArrayList<>(opened.size());
            for (int i = 0; i < opened.size(); i++) {
                BatchChannel channel = new BatchChannel(PREFETCH_BATCHES, 1);
                channels.add(channel);
                received.add(new ChannelStream(channel, context));
            }
            // the merge closes the channels when it is closed, so a producer that did start stops
            merge = new SortedMerge(input.schema(), keys, received, context.allocator(), null);
            producers.startEach(context, opened, i -> "merge-" + context.taskId() + "-p" + i,
                    (i, stream) -> new ChannelProducer(stream, context, channels.get(i)));
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (merge != null) {
                    merge.close();
                }
            } finally {
                producers.awaitAll();
            }
        }
    }

    /** One input partition's prefetch queue as a stream. */
    private final class ChannelStream implements BatchStream {
        private final BatchChannel channel;
        private final TaskContext context;

        ChannelStream(BatchChannel channel, TaskContext context) {
            this.channel = channel;
            this.context = context;
        }

        @Override
        public Schema schema() {
            return input.schema();
        }

        @Override
        public VectorSchemaRoot next() {
            return channel.receive(context);
        }

        @Override
        public void close() {
            channel.close();
        }
    }
}
