package dev.quiver.sql.physical;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.FilterExec;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A table scan together with the filter and projection directly above it: the source is asked only
 * for the columns they use (and given the filter's conjuncts to skip data with), and the filter and
 * projection are re-expressed over the narrower scan.
 */
final class ScanPlanner {
    private ScanPlanner() {}

    static ExecutionPlan plan(TableScan scan, Optional<Filter> filter, Optional<Project> project, int targetPartitions) {
        TableSource source = scan.getTable().unwrap(TableSource.class);
        if (source == null) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "Table " + scan.getTable().getQualifiedName() + " has no Quiver TableSource");
        }
        RexBuilder rexBuilder = scan.getCluster().getRexBuilder();
        List<Integer> projection = neededColumns(source, filter, project);
        Map<Integer, Integer> positions = new HashMap<>();
        for (int i = 0; i < projection.size(); i++) {
            positions.put(projection.get(i), i);
        }
        List<PhysicalExpr> pushed = new ArrayList<>();
        if (filter.isPresent()) {
            RexTranslator full = new RexTranslator(source.schema(), rexBuilder);
            for (RexNode conjunct : RelOptUtil.conjunctions(filter.get().getCondition())) {
                pushed.add(full.translate(conjunct));
            }
        }
        boolean allColumns = projection.size() == source.schema().getFields().size()
                && projection.equals(allIndexes(projection.size()));
        ExecutionPlan plan = source.scan(new ScanRequest(allColumns ? Optional.empty() : Optional.of(projection), pushed, targetPartitions));
        RexShuttle remap = new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return new RexInputRef(positions.get(ref.getIndex()), ref.getType());
            }
        };
        if (filter.isPresent()) {
            RexTranslator translator = new RexTranslator(plan.schema(), rexBuilder);
            plan = new FilterExec(translator.translate(filter.get().getCondition().accept(remap)), plan);
        }
        if (project.isPresent()) {
            RexTranslator translator = new RexTranslator(plan.schema(), rexBuilder);
            List<RexNode> exprs = new ArrayList<>();
            for (RexNode expr : project.get().getProjects()) {
                exprs.add(expr.accept(remap));
            }
            plan = PhysicalPlanner.projection(translator.translate(exprs), project.get().getRowType().getFieldNames(), plan);
        }
        return plan;
    }

    private static List<Integer> neededColumns(TableSource source, Optional<Filter> filter, Optional<Project> project) {
        int columnCount = source.schema().getFields().size();
        if (project.isEmpty()) {
            return allIndexes(columnCount);
        }
        ImmutableBitSet.Builder used = ImmutableBitSet.builder();
        used.addAll(RelOptUtil.InputFinder.bits(project.get().getProjects(), null));
        filter.ifPresent(f -> used.addAll(RelOptUtil.InputFinder.bits(f.getCondition())));
        List<Integer> needed = new ArrayList<>(used.build().asList());
        if (needed.isEmpty()) {
            // Something must carry the row count (COUNT(*), constant projections).
            needed.add(0);
        }
        return needed;
    }

    private static List<Integer> allIndexes(int count) {
        List<Integer> all = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            all.add(i);
        }
        return all;
    }
}
