package dev.quiver.engine.execution;

import dev.quiver.engine.metrics.OperatorMetrics;
import dev.quiver.engine.stats.Statistics;
import java.util.List;
import java.util.OptionalInt;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A node of a physical plan: an operator that, given a partition number, produces that
 * partition's batches as a {@link BatchStream}.
 *
 * <h2>Immutability</h2>
 * A plan node is immutable data: its fields describe what to compute, never state of a run, so
 * that the distributed layer can serialize it and send it to workers, and rewrites build new
 * trees through {@link #withNewChildren(List)}. The one mutable part is {@link #metrics()}, which
 * collects what executions of this node measured and is not part of the node's identity.
 *
 * <h2>Execution</h2>
 * {@link #execute(int, TaskContext)} is called once per output partition, each from the thread
 * that will pull the returned stream. It must do no heavy work itself: the work happens as the
 * caller pulls. Partitions of one node may run concurrently on different threads; any state
 * shared between partitions (the build side of a collect-left join, the input queues of a
 * repartition) is created lazily, once per {@link TaskContext}, and released when the last
 * partition's stream closes.
 *
 * <h2>Memory</h2>
 * Batches are allocated from {@link TaskContext#allocator()}. An operator that retains data across
 * batches (hash tables, build sides, sort buffers, accumulators) grows a named
 * {@link dev.quiver.engine.memory.MemoryReservation} from {@link TaskContext#memoryPool()} for
 * what it holds, and fails with {@link dev.quiver.engine.error.ResourcesExhaustedException} when it
 * cannot — except a partial aggregate, which emits what it holds instead.
 *
 * <h2>Errors</h2>
 * Invalid construction throws {@link dev.quiver.engine.error.QuiverException} with
 * {@link dev.quiver.engine.error.ErrorCode#PLAN_ERROR} naming the bad input; failures while
 * running are thrown from {@link BatchStream#next()}.
 */
public interface ExecutionPlan {
    /** The operator's name as shown in plans, e.g. {@code FilterExec}. */
    String name();

    Schema schema();

    List<ExecutionPlan> children();

    /** How the output is partitioned; {@code execute} accepts {@code 0 <= partition < partitionCount()}. */
    Partitioning outputPartitioning();

    /** A copy of this node over new children (same count, compatible schemas). */
    ExecutionPlan withNewChildren(List<ExecutionPlan> children);

    /** Starts producing one output partition. */
    BatchStream execute(int partition, TaskContext context);

    /**
     * Statistics of one output partition, or of all partitions together when {@code partition}
     * is empty. Never null: unknown values are {@link dev.quiver.engine.stats.Estimate#absent()}.
     */
    default Statistics partitionStatistics(OptionalInt partition) {
        return Statistics.unknown(schema());
    }

    /** What executions of this node measured so far. */
    OperatorMetrics metrics();

    /** One deterministic line describing this node (not its children), e.g. {@code FilterExec: l_quantity < 24}. */
    String displayLine();
}
