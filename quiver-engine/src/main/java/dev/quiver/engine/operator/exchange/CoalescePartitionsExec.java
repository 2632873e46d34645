package dev.quiver.engine.operator.exchange;

import dev.quiver.engine.stats.Statistics;
import java.util.OptionalInt;
import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.metrics.PartitionMetrics;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Merges all input partitions into one, in no particular order: a thread of the task's executor
 * drains each input partition into a bounded queue.
 *
 * <p>The threads start on the first {@code next()}. Closing the stream early makes them stop after
 * the batch they are computing, waits for them to close their inputs, and releases queued batches.
 * A failure of any input partition is reported to the task and thrown from {@code next()} as is.
 */
public final class CoalescePartitionsExec extends AbstractExecutionPlan {
    private final ExecutionPlan input;

    /** Batches queued per input partition. */
    private static final int QUEUE_BATCHES_PER_INPUT = 2;

    public CoalescePartitionsExec(ExecutionPlan input) {
        this.input = requireNonNull(input, "input is null");
    }

    public ExecutionPlan input() {
        return input;
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
        return new CoalescePartitionsExec(children.get(0));
    }

    @Override
    public String displayLine() {
        return "CoalescePartitionsExec";
    }

    @Override
    public String name() {
        return "CoalescePartitionsExec";
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        return input.partitionStatistics(OptionalInt.empty());
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        int inputs = input.outputPartitioning().partitionCount();
        PartitionMetrics partitionMetrics = metrics().partition(partition);
        BatchStream stream = inputs == 1 ? input.execute(0, context) : new CoalesceStream(context, inputs, partitionMetrics);
        return new MeteredBatchStream(stream, partitionMetrics, context);
    }

    private final class CoalesceStream implements BatchStream {
        private final TaskContext context;
        private final int inputs;
        private final BatchChannel channel;
        private final ProducerGroup producers = new ProducerGroup();
        private final PartitionMetrics metrics;
        private boolean started;
        private boolean closed;

        CoalesceStream(TaskContext context, int inputs, PartitionMetrics metrics) {
            this.context = context;
            this.inputs = inputs;
            this.metrics = metrics;
            this.channel = new BatchChannel(Math.max(2, QUEUE_BATCHES_PER_INPUT * inputs), inputs);
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
                started = true;
                producers.startEach(context, InputPartitions.open(input, context), i -> "coalesce-" + context.taskId() + "-p" + i,
                        (i, stream) -> new ChannelProducer(stream, context, channel));
            }
            long start = System.nanoTime();
            try {
                return channel.receive(context);
            } finally {
                metrics.addWait(System.nanoTime() - start);
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            channel.close();
            producers.awaitAll();
        }
    }
}
