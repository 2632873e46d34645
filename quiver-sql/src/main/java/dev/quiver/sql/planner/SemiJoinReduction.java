package dev.quiver.sql.planner;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.tools.RelBuilder;

/**
 * Semi-join reduction below a grouped aggregate: in an inner join of {@code Aggregate(X) GROUP BY k}
 * with a filtered table scan {@code F} on {@code k = F.c}, groups whose key has no match in
 * {@code F} are dropped by the join, so {@code X} can first be reduced to the rows whose {@code k}
 * occurs in {@code F}: {@code Aggregate(X ⋉ F) ⋈ F}. The surviving groups see all their rows, so
 * the result is unchanged. This is q17's decorrelated AVG(l_quantity) per part, which otherwise
 * aggregates all of lineitem for all 200 K parts while about 200 parts pass the filter.
 *
 * <p>Applied only where it pays: {@code F} is a scan under filters and projections (cheap to
 * compute twice, and copied so that each use is its own node) and is estimated at most a tenth of
 * the aggregate's groups.
 */
final class SemiJoinReduction extends RelHomogeneousShuttle {
    /** The largest ratio of the filtered side's rows to the aggregate's groups that is reduced. */
    private static final double MAX_RATIO = 0.1;

    private final RelBuilder relBuilder;

    private SemiJoinReduction(RelBuilder relBuilder) {
        this.relBuilder = requireNonNull(relBuilder, "relBuilder is null");
    }

    static RelNode apply(RelNode rel, RelBuilder relBuilder) {
        return rel.accept(new SemiJoinReduction(relBuilder));
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode node = super.visit(other);
        if (!(node instanceof Join join) || join.getJoinType() != JoinRelType.INNER) {
            return node;
        }
        JoinInfo info = join.analyzeCondition();
        if (info.leftKeys.isEmpty() || info.nullExclusionFlags.contains(false)) {
            return node;
        }
        RelNode left = reduce(join.getLeft(), info.leftKeys, join.getRight(), info.rightKeys);
        RelNode right = reduce(join.getRight(), info.rightKeys, join.getLeft(), info.leftKeys);
        if (left == join.getLeft() && right == join.getRight()) {
            return node;
        }
        return join.copy(join.getTraitSet(), join.getCondition(), left, right, join.getJoinType(), join.isSemiJoinDone());
    }

    private RelNode reduce(RelNode side, List<Integer> keys, RelNode filtered, List<Integer> filteredKeys) {
        if (!(side instanceof Aggregate aggregate) || aggregate.getGroupType() != Aggregate.Group.SIMPLE
                || keys.stream().anyMatch(key -> key >= aggregate.getGroupCount()) || !isFilteredScan(filtered)) {
            return side;
        }
        RelMetadataQuery mq = side.getCluster().getMetadataQuery();
        Double groups = mq.getRowCount(aggregate);
        Double filteredRows = mq.getRowCount(filtered);
        if (groups == null || filteredRows == null || filteredRows > MAX_RATIO * groups) {
            return side;
        }
        relBuilder.push(aggregate.getInput()).push(copy(filtered));
        List<RexNode> conditions = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            int inputColumn = aggregate.getGroupSet().nth(keys.get(i));
            conditions.add(relBuilder.equals(relBuilder.field(2, 0, inputColumn), relBuilder.field(2, 1, filteredKeys.get(i))));
        }
        RelNode reducedInput = relBuilder.semiJoin(conditions).build();
        return aggregate.copy(aggregate.getTraitSet(), List.of(reducedInput));
    }

    /** Projections and filters over one table scan, with at least one filter. */
    private static boolean isFilteredScan(RelNode rel) {
        boolean filtered = false;
        RelNode node = rel;
        while (node instanceof Project || node instanceof Filter) {
            filtered |= node instanceof Filter;
            node = node.getInput(0);
        }
        return filtered && node instanceof TableScan;
    }

    /** A copy of a filtered scan with new nodes throughout, so that no node has two parents. */
    private static RelNode copy(RelNode rel) {
        if (rel instanceof TableScan scan) {
            return LogicalTableScan.create(scan.getCluster(), scan.getTable(), scan.getHints());
        }
        return rel.copy(rel.getTraitSet(), List.of(copy(rel.getInput(0))));
    }
}
