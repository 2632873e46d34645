package dev.quiver.sql.physical;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.IsNullExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.expr.function.ConditionalFunctions;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.join.HashJoinExec;
import dev.quiver.engine.operator.join.JoinSchemas;
import dev.quiver.engine.operator.join.JoinType;
import dev.quiver.engine.operator.join.NestedLoopJoinExec;
import dev.quiver.engine.operator.join.PartitionMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

/**
 * A Calcite join as a hash join on its equi-keys (the rest of the condition is the residual
 * filter), or a nested-loop join when it has none. The smaller input by Calcite's row-count
 * estimate becomes the build (physical left) side; when that is Calcite's right input the sides and
 * the join type are swapped and a projection restores the column order.
 */
final class JoinPlanner {
    private final PhysicalPlannerOptions options;

    JoinPlanner(PhysicalPlannerOptions options) {
        this.options = requireNonNull(options, "options is null");
    }

    ExecutionPlan plan(Join join, ExecutionPlan left, ExecutionPlan right) {
        RelMetadataQuery mq = join.getCluster().getMetadataQuery();
        double leftRows = rows(mq.getRowCount(join.getLeft()));
        double rightRows = rows(mq.getRowCount(join.getRight()));
        JoinType type = joinType(join);
        boolean swap = rightRows < leftRows;
        JoinInfo info = join.analyzeCondition();
        RexBuilder rexBuilder = join.getCluster().getRexBuilder();
        RexNode remaining = info.getRemaining(rexBuilder);
        int leftCount = left.schema().getFields().size();
        int rightCount = right.schema().getFields().size();

        ExecutionPlan build = swap ? right : left;
        ExecutionPlan probe = swap ? left : right;
        List<Integer> buildKeys = swap ? info.rightKeys : info.leftKeys;
        List<Integer> probeKeys = swap ? info.leftKeys : info.rightKeys;
        JoinType physicalType = swap ? swapped(type) : type;
        Optional<PhysicalExpr> filter = Optional.empty();
        if (!remaining.isAlwaysTrue()) {
            RexNode condition = swap ? remaining.accept(swapInputs(leftCount, rightCount)) : remaining;
            RexTranslator both = new RexTranslator(JoinSchemas.filterSchema(build.schema(), probe.schema()), rexBuilder, options.divisionByZero());
            filter = Optional.of(both.translate(condition));
        }

        ExecutionPlan plan;
        if (buildKeys.isEmpty()) {
            plan = new NestedLoopJoinExec(build, probe, physicalType, filter);
        } else {
            plan = hashJoin(build, probe, buildKeys, probeKeys, info.nullExclusionFlags, physicalType, filter, swap ? rightRows : leftRows);
        }
        if (swap && physicalType.outputsLeft() && physicalType.outputsRight()) {
            plan = restoreOrder(plan, rightCount, leftCount);
        }
        return plan;
    }

    private ExecutionPlan hashJoin(ExecutionPlan build, ExecutionPlan probe, List<Integer> buildKeyIndexes, List<Integer> probeKeyIndexes,
            List<Boolean> excludeNulls, JoinType type, Optional<PhysicalExpr> filter, double buildRows) {
        List<PhysicalExpr> buildKeys = new ArrayList<>();
        List<PhysicalExpr> probeKeys = new ArrayList<>();
        for (int i = 0; i < buildKeyIndexes.size(); i++) {
            PhysicalExpr buildKey = RexTranslator.column(build.schema(), buildKeyIndexes.get(i));
            PhysicalExpr probeKey = RexTranslator.column(probe.schema(), probeKeyIndexes.get(i));
            // Equal values must hash and compare equal on both sides: bring INT vs BIGINT, or
            // decimals of different scales, to one type.
            ArrowType common = TypeMapping.commonType(buildKey.type(), probeKey.type());
            buildKey = RexTranslator.castTo(buildKey, common);
            probeKey = RexTranslator.castTo(probeKey, common);
            if (!excludeNulls.get(i) && (buildKey.nullable() || probeKey.nullable())) {
                // IS NOT DISTINCT FROM: hash joins never match NULL keys, so join on
                // (COALESCE(key, placeholder), key IS NULL) instead, which is never NULL and equal
                // exactly when the keys are both NULL or equal.
                buildKeys.add(nullSafe(buildKey));
                probeKeys.add(nullSafe(probeKey));
                buildKeys.add(new IsNullExpr(buildKey, false));
                probeKeys.add(new IsNullExpr(probeKey, false));
            } else {
                buildKeys.add(buildKey);
                probeKeys.add(probeKey);
            }
        }
        boolean collect = buildRows <= options.collectLeftMaxRows() || options.targetPartitions() == 1;
        if (collect) {
            return new HashJoinExec(build, probe, buildKeys, probeKeys, type, filter, PartitionMode.COLLECT_LEFT);
        }
        int partitions = options.targetPartitions();
        ExecutionPlan buildSide = new RepartitionExec(build, new Partitioning.Hash(buildKeys, partitions));
        ExecutionPlan probeSide = new RepartitionExec(probe, new Partitioning.Hash(probeKeys, partitions));
        return new HashJoinExec(buildSide, probeSide, buildKeys, probeKeys, type, filter, PartitionMode.PARTITIONED);
    }

    private static PhysicalExpr nullSafe(PhysicalExpr key) {
        LiteralExpr placeholder = new LiteralExpr(Literals.zero(key.type()), key.type());
        return ConditionalFunctions.COALESCE.call(List.of(key, placeholder), key.type());
    }

    private static ExecutionPlan restoreOrder(ExecutionPlan plan, int buildCount, int probeCount) {
        List<PhysicalExpr> exprs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < probeCount + buildCount; i++) {
            int index = i < probeCount ? buildCount + i : i - probeCount;
            exprs.add(RexTranslator.column(plan.schema(), index));
            names.add(plan.schema().getFields().get(index).getName());
        }
        return new ProjectionExec(exprs, names, plan);
    }

    /** Maps a condition over (left, right) to one over (right, left). */
    private static RexShuttle swapInputs(int leftCount, int rightCount) {
        return new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                int index = ref.getIndex();
                int swapped = index < leftCount ? rightCount + index : index - leftCount;
                return new RexInputRef(swapped, ref.getType());
            }
        };
    }

    private static JoinType joinType(Join join) {
        return switch (join.getJoinType()) {
            case INNER -> JoinType.INNER;
            case LEFT -> JoinType.LEFT;
            case RIGHT -> JoinType.RIGHT;
            case FULL -> JoinType.FULL;
            case SEMI -> JoinType.LEFT_SEMI;
            case ANTI -> JoinType.LEFT_ANTI;
            default -> throw new QuiverException(ErrorCode.NOT_SUPPORTED, "The join type " + join.getJoinType() + " is not supported");
        };
    }

    private static JoinType swapped(JoinType type) {
        return switch (type) {
            case INNER -> JoinType.INNER;
            case FULL -> JoinType.FULL;
            case LEFT -> JoinType.RIGHT;
            case RIGHT -> JoinType.LEFT;
            case LEFT_SEMI -> JoinType.RIGHT_SEMI;
            case LEFT_ANTI -> JoinType.RIGHT_ANTI;
            case RIGHT_SEMI -> JoinType.LEFT_SEMI;
            case RIGHT_ANTI -> JoinType.LEFT_ANTI;
        };
    }

    private static double rows(Double estimate) {
        return estimate == null || estimate.isNaN() ? Double.MAX_VALUE : estimate;
    }
}
