package dev.quiver.distributed.plan;

import dev.quiver.engine.execution.ExecutionPlan;
import java.util.List;

/**
 * How a data source's leaf spreads over the tasks of a stage (DESIGN §4): how many tasks it wants
 * (a {@link TaskCountHint.Desired}, or an {@link TaskCountHint.Exact} when it cannot be split), and
 * its per-task variants once the stage's task count is chosen.
 *
 * <p>Register an estimator for a custom leaf with {@link TaskEstimators.Builder#add}; a leaf without
 * an estimator runs as {@code Exact(1)}. Implementations are stateless and thread-safe.
 *
 * @param <T> the leaf class this estimator handles (exactly: subclasses need their own estimator)
 */
public interface TaskEstimator<T extends ExecutionPlan> {
    /** The leaf class this estimator handles; estimators are chosen by the leaf's exact class. */
    Class<T> leafClass();

    /** How many tasks {@code leaf} wants, with an origin naming the leaf and the reason (sizes, settings). */
    TaskCountHint taskCount(T leaf, DistributedPlannerSettings settings);

    /**
     * The leaf as each of {@code taskCount} tasks runs it: variant t reads task t's share, the shares
     * are disjoint and together are the whole leaf, and every variant has {@code partitionsPerTask}
     * partitions (some may be empty) and the leaf's schema. With {@code taskCount = 1} the single
     * variant reads everything.
     */
    List<ExecutionPlan> scaleUpLeafNode(T leaf, int taskCount, int partitionsPerTask);
}
