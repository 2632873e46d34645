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
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.schema.TransientTable;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A table scan together with the filter and projection above it: the source is asked only for the
 * columns they use (and given the filter's conjuncts to skip data with), and the filter and
 * projection are re-expressed over the narrower scan.
 *
 * <p>Recognised shapes: {@code Scan}, {@code Filter(Scan)}, {@code Project(Scan)},
 * {@code Project(Filter(Scan))}, and the same with a column-selecting {@code Project} between the
 * filter and the scan (which Calcite's field trimming leaves), whose filter is rewritten over the
 * table's columns.
 */
final class ScanPlanner {
    /** What sits on top of the scan, all over the table's columns. */
    private record Shape(TableScan scan, Optional<RexNode> condition, Optional<List<RexNode>> projects, List<String> names) {}

    private ScanPlanner() {}

    /** The scan plan for {@code rel} if it has one of the recognised shapes. */
    static Optional<ExecutionPlan> tryPlan(RelNode rel, PhysicalPlannerOptions options) {
        return shape(rel).map(shape -> plan(shape, options));
    }

    private static Optional<Shape> shape(RelNode rel) {
        if (rel instanceof TableScan scan) {
            return Optional.of(new Shape(scan, Optional.empty(), Optional.empty(), rel.getRowType().getFieldNames()));
        }
        if (rel instanceof Filter filter) {
            return filtered(filter).map(below -> new Shape(below.scan(), below.condition(), below.projects(), rel.getRowType().getFieldNames()));
        }
        if (rel instanceof Project project) {
            RelNode input = project.getInput();
            Optional<Shape> below = input instanceof TableScan scan
                    ? Optional.of(new Shape(scan, Optional.empty(), Optional.empty(), input.getRowType().getFieldNames()))
                    : input instanceof Filter filter ? filtered(filter) : Optional.empty();
            return below.map(shape -> new Shape(shape.scan(), shape.condition(),
                    Optional.of(compose(project.getProjects(), shape.projects())), rel.getRowType().getFieldNames()));
        }
        return Optional.empty();
    }

    /** {@code Filter(Scan)} or {@code Filter(Project(Scan))} with a column-selecting project. */
    private static Optional<Shape> filtered(Filter filter) {
        RelNode input = filter.getInput();
        if (input instanceof TableScan scan) {
            return Optional.of(new Shape(scan, Optional.of(filter.getCondition()), Optional.empty(), input.getRowType().getFieldNames()));
        }
        if (input instanceof Project project && project.getInput() instanceof TableScan scan
                && project.getProjects().stream().allMatch(p -> p instanceof RexInputRef)) {
            RexNode condition = RelOptUtil.pushPastProject(filter.getCondition(), project);
            return Optional.of(new Shape(scan, Optional.of(condition), Optional.of(project.getProjects()), input.getRowType().getFieldNames()));
        }
        return Optional.empty();
    }

    /** {@code outer} (over the rows {@code inner} makes) rewritten over the table's columns. */
    private static List<RexNode> compose(List<RexNode> outer, Optional<List<RexNode>> inner) {
        if (inner.isEmpty()) {
            return outer;
        }
        RexShuttle substitute = new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return inner.get().get(ref.getIndex());
            }
        };
        List<RexNode> composed = new ArrayList<>();
        for (RexNode expr : outer) {
            composed.add(expr.accept(substitute));
        }
        return composed;
    }

    private static ExecutionPlan plan(Shape shape, PhysicalPlannerOptions options) {
        TableScan scan = shape.scan();
        TableSource source = scan.getTable().unwrap(TransientTable.class) != null
                ? new WorkTableSource(scan.getTable().getQualifiedName(), TypeMapping.schema(scan.getTable().getRowType()))
                : scan.getTable().unwrap(TableSource.class);
        if (source == null) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "Table " + scan.getTable().getQualifiedName() + " has no Quiver TableSource");
        }
        RexBuilder rexBuilder = scan.getCluster().getRexBuilder();
        List<Integer> projection = neededColumns(source, shape);
        Map<Integer, Integer> positions = new HashMap<>();
        for (int i = 0; i < projection.size(); i++) {
            positions.put(projection.get(i), i);
        }
        List<PhysicalExpr> pushed = new ArrayList<>();
        if (shape.condition().isPresent()) {
            RexTranslator full = new RexTranslator(source.schema(), rexBuilder, options.divisionByZero());
            for (RexNode conjunct : RelOptUtil.conjunctions(shape.condition().get())) {
                pushed.add(full.translate(conjunct));
            }
        }
        boolean allColumns = projection.equals(allIndexes(source.schema().getFields().size()));
        ExecutionPlan plan = source.scan(new ScanRequest(allColumns ? Optional.empty() : Optional.of(projection), pushed, options.targetPartitions()));
        RexShuttle remap = new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return new RexInputRef(positions.get(ref.getIndex()), ref.getType());
            }
        };
        if (shape.condition().isPresent()) {
            RexTranslator translator = new RexTranslator(plan.schema(), rexBuilder, options.divisionByZero());
            plan = new FilterExec(translator.translate(shape.condition().get().accept(remap)), plan);
        }
        if (shape.projects().isPresent()) {
            RexTranslator translator = new RexTranslator(plan.schema(), rexBuilder, options.divisionByZero());
            List<RexNode> exprs = new ArrayList<>();
            for (RexNode expr : shape.projects().get()) {
                exprs.add(expr.accept(remap));
            }
            plan = PhysicalPlanner.projection(translator.translate(exprs), shape.names(), plan);
        }
        return plan;
    }

    private static List<Integer> neededColumns(TableSource source, Shape shape) {
        if (shape.projects().isEmpty()) {
            return allIndexes(source.schema().getFields().size());
        }
        ImmutableBitSet.Builder used = ImmutableBitSet.builder();
        used.addAll(RelOptUtil.InputFinder.bits(shape.projects().get(), null));
        shape.condition().ifPresent(condition -> used.addAll(RelOptUtil.InputFinder.bits(condition)));
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
