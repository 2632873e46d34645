package dev.quiver.engine.operator.exchange;

import dev.quiver.engine.execution.PlanChecks;
import dev.quiver.engine.stats.Statistics;
import java.util.OptionalInt;
import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Redistributes rows into {@code partitioning}'s partitions: {@link Partitioning.Hash} by the
 * engine's seeded partition hash, {@link Partitioning.RoundRobin} batch by batch. A thread of the
 * task's executor drains each input partition; output partitions are read concurrently.
 *
 * <p>The producers start when any output partition first asks for a batch, and share
 * {@link RepartitionState} through the task context. Output partitions must be consumed
 * concurrently (or closed): see {@link RepartitionState} for how back-pressure avoids deadlock.
 */
public final class RepartitionExec extends AbstractExecutionPlan {
    private final ExecutionPlan input;
    private final Partitioning partitioning;

    /** Batches queued per output partition before producers wait. */
    private static final int QUEUE_BATCHES_PER_OUTPUT = 4;

    public RepartitionExec(ExecutionPlan input, Partitioning partitioning) {
        this.input = requireNonNull(input, "input is null");
        this.partitioning = requireNonNull(partitioning, "partitioning is null");
        PlanChecks.checkArgument(partitioning instanceof Partitioning.Hash || partitioning instanceof Partitioning.RoundRobin, "RepartitionExec",
                "supports hash and round-robin partitioning, not %s", partitioning);
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
        return partitioning;
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new RepartitionExec(children.get(0), partitioning);
    }

    @Override
    public String displayLine() {
        String shown = partitioning instanceof Partitioning.Hash hash
                ? "Hash([" + hash.keys().stream().map(PhysicalExpr::display).collect(Collectors.joining(", ")) + "], " + hash.partitionCount() + ")"
                : partitioning.toString();
        return "RepartitionExec: partitioning=" + shown + ", input_partitions=" + input.outputPartitioning().partitionCount();
    }

    @Override
    public String name() {
        return "RepartitionExec";
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        Statistics all = input.partitionStatistics(OptionalInt.empty());
        if (partition.isEmpty()) {
            return all;
        }
        double share = 1.0 / partitioning.partitionCount();
        return new Statistics(all.rowCount().times(share).toInexact(), all.totalBytes().times(share).toInexact(), all.toInexact().columns());
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        int inputs = input.outputPartitioning().partitionCount();
        RepartitionState state = context.sharedState(this, RepartitionState.class,
                () -> new RepartitionState(partitioning.partitionCount(), inputs, QUEUE_BATCHES_PER_OUTPUT));
        return new MeteredBatchStream(new OutputStream(state, partition, context), metrics().partition(partition), context);
    }

    private void startProducers(RepartitionState state, TaskContext context) {
        state.producers().startEach(context, InputPartitions.open(input, context), i -> "repartition-" + context.taskId() + "-in" + i,
                (i, stream) -> new RepartitionProducer(stream, i, partitioning, state, context, metrics().partition(i % partitioning.partitionCount())));
    }

    private final class OutputStream implements BatchStream {
        private final RepartitionState state;
        private final int partition;
        private final TaskContext context;
        private boolean closed;

        OutputStream(RepartitionState state, int partition, TaskContext context) {
            this.state = state;
            this.partition = partition;
            this.context = context;
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
            state.startOnce(() -> startProducers(state, context));
            long start = System.nanoTime();
            try {
                return state.receive(partition, context);
            } finally {
                metrics().partition(partition).addWait(System.nanoTime() - start);
            }
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                state.closeOutput(partition);
            }
        }
    }
}
