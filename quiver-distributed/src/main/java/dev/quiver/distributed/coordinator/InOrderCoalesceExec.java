package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.exchange.StageInputExec;
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
 * The head stage's coalesce under a LIMIT: reads the partitions of its stage input one after
 * another instead of all at once, so that once the limit is satisfied the producer tasks it never
 * asked for were never executed (they end SKIPPED, and their work is never done). The producer
 * stage already holds a local limit per partition, so the first partitions usually satisfy it. Used
 * only on the coordinator, for {@code GlobalLimitExec(fetch) → CoalescePartitionsExec → StageInputExec}
 * (see {@link #rewrite}); never serialized.
 */
final class InOrderCoalesceExec extends AbstractExecutionPlan {
    private final ExecutionPlan input;

    InOrderCoalesceExec(ExecutionPlan input) {
        this.input = requireNonNull(input, "input is null");
    }

    /** {@code head} with its limit's coalesce of a stage input read in order; any other plan unchanged. */
    static ExecutionPlan rewrite(ExecutionPlan head) {
        if (head instanceof GlobalLimitExec limit && limit.fetch().isPresent()
                && limit.children().get(0) instanceof CoalescePartitionsExec coalesce && coalesce.input() instanceof StageInputExec) {
            return limit.withNewChildren(List.of(new InOrderCoalesceExec(coalesce.input())));
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
        return new InOrderCoalesceExec(children.get(0));
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

    /** Opens input partition i only when partition i - 1 has ended. */
    private final class InOrderStream implements BatchStream {
        private final TaskContext context;
        private final int partitions = input.outputPartitioning().partitionCount();
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
                    if (next == partitions) {
                        return null;
                    }
                    current = input.execute(next++, context);
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
}
