package dev.quiver.distributed.planner;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.PlanTree;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.join.HashJoinExec;
import dev.quiver.engine.operator.join.PartitionMode;

/**
 * The planner's preparatory pass for {@code distributed.broadcast_joins=false} (before
 * {@link StageCutter}): every collect-left hash join is planned partitioned instead, both sides
 * hash-repartitioned on the join keys into {@code P} partitions, as the SQL planner plans a join
 * whose build side is too large to collect — so the cutter turns both sides into shuffles and never
 * rewrites a join itself. Joins already partitioned are left as they are. The result is a
 * single-node plan that runs as it is.
 */
final class PartitionedJoins {
    private PartitionedJoins() {}

    static ExecutionPlan apply(ExecutionPlan plan, int partitions) {
        return PlanTree.rewriteBottomUp(plan, node -> node instanceof HashJoinExec join && join.mode() == PartitionMode.COLLECT_LEFT
                ? new HashJoinExec(new RepartitionExec(join.left(), new Partitioning.Hash(join.leftKeys(), partitions)),
                        new RepartitionExec(join.right(), new Partitioning.Hash(join.rightKeys(), partitions)), join.leftKeys(), join.rightKeys(),
                        join.joinType(), join.filter(), PartitionMode.PARTITIONED)
                : node);
    }
}
