package dev.quiver.distributed.operator;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.operator.limit.GlobalLimitExec;
import dev.quiver.engine.stats.Statistics;
import java.util.List;
import java.util.OptionalInt;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The head stage's coalesce under a LIMIT: reads its stage input one producer task at a time (the
 * task's partitions together) instead of all at once, so that once the limit is satisfied the
 * producer tasks it never asked for were never executed (they end SKIPPED, and their work is never
 * done). The producer stage already holds a local limit per partition, so the first task usually
 * satisfies it. Used only on the coordinator, for
 * {@code GlobalLimitExec(fetch) → CoalescePartitionsExec → StageInputExec(coalesce)} (see
 * {@link #rewrite}); never serialized.
 */
public final class InOrderCoalesceExec extends AbstractExecutionPlan {
    private final StageInputExec input;

    InOrderCoalesceExec(StageInputExec input) {
        this.input = requireNonNull(input, "input is null");
    }

    /** {@code head} with its limit's coalesce of a stage input read in order; any other plan unchanged. */
    public static ExecutionPlan rewrite(ExecutionPlan head) {
        if (head instanceof GlobalLimitExec limit && limit.fetch().isPresent()
                && limit.children().get(0) instanceof CoalescePartitionsExec coalesce && coalesce.input() instanceof StageInputExec stageInput
                && stageInput.kind() == BoundaryKind.COALESCE) {
            return limit.withNewChildren(List.of(new InOrderCoalesceExec(stageInput)));
        }
        return head;
    }

    @Override
    public String name() {
        return "CoalescePartitionsExec";
    }

    @Override
    public String displayLine() {
        return "CoalescePartitionsExec: in order (under a limit)";
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
        return new InOrderCoalesceExec((StageInputExec) children.get(0));
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        return input.partitionStatistics(OptionalInt.empty());
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        return new MeteredBatchStream(new InOrderStream(context), metrics().partition(partition), context);
    }

    /**
     * Reads producer task t's partitions ({@code [t·P_p, t·P_p + P_p)} of the input, coalesced) only
     * when task t - 1's have ended.
     */
    private final class InOrderStream implements BatchStream {
        private final TaskContext context;
        private final int producerPartitions = input.producerPartitions();
        private final int tasks = input.producerTasks();
        private int next;
        private BatchStream current;
        private boolean closed;

        InOrderStream(TaskContext context) {
            this.context = context;
        }

        @Override
        public Schema schema() {
            return input.schema();
        }

        @Override
        public VectorSchemaRoot next() {
            while (!closed) {
                context.checkCancelled();
                if (current == null) {
                    if (next == tasks) {
                        return null;
                    }
                    ExecutionPlan task = new PartitionRange(input, next++ * producerPartitions, producerPartitions);
                    current = new CoalescePartitionsExec(task).execute(0, context);
                }
                VectorSchemaRoot batch = current.next();
                if (batch != null) {
                    return batch;
                }
                current.close();
                current = null;
            }
            return null;
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            if (current != null) {
                current.close();
                current = null;
            }
        }
    }

    /** Partitions {@code [first, first + count)} of {@code input}, as partitions 0 to count - 1; only to be executed here. */
    private static final class PartitionRange extends AbstractExecutionPlan {
        private final ExecutionPlan input;
        private final int first;
        private final int count;

        PartitionRange(ExecutionPlan input, int first, int count) {
            this.input = input;
            this.first = first;
            this.count = count;
        }

        @Override
        public String name() {
            return "PartitionRange";
        }

        @Override
        public String displayLine() {
            return "PartitionRange: [" + first + ", " + (first + count) + ")";
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
            return new Partitioning.Unknown(count);
        }

        @Override
        public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
            return new PartitionRange(children.get(0), first, count);
        }

        @Override
        public Statistics partitionStatistics(OptionalInt partition) {
            return Statistics.unknown(input.schema());
        }

        @Override
        public BatchStream execute(int partition, TaskContext context) {
            checkPartition(partition);
            return input.execute(first + partition, context);
        }
    }
}
