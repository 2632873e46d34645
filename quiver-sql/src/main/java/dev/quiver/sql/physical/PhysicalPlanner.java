package dev.quiver.sql.physical;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.FilterExec;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.operator.ReplicateRowsExec;
import dev.quiver.engine.operator.UnionExec;
import dev.quiver.engine.operator.ValuesExec;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.unnest.UnnestExec;
import dev.quiver.sql.planner.LogicalReplicate;
import dev.quiver.sql.planner.LogicalUnnest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;

/**
 * Turns an optimized Calcite logical plan into an executable {@link ExecutionPlan}, bottom-up, one
 * relational operator at a time:
 *
 * <ul>
 * <li>TableScan (with a Filter and Project directly above it) → the table's
 *     {@link dev.quiver.engine.spi.TableSource#scan} with projection and filters
 *     ({@link ScanPlanner});</li>
 * <li>Filter → FilterExec; Project → ProjectionExec; Values → ValuesExec; Union → UnionExec (plus a
 *     grouping for UNION DISTINCT);</li>
 * <li>Aggregate → two-phase HashAggregateExec ({@link AggregatePlanner});</li>
 * <li>Join → HashJoinExec or NestedLoopJoinExec ({@link JoinPlanner});</li>
 * <li>Sort → SortExec, SortPreservingMergeExec and limits ({@link SortPlanner});</li>
 * <li>Window → sorts and WindowExecs ({@link WindowPlanner});</li>
 * <li>LogicalUnnest → UnnestExec.</li>
 * </ul>
 *
 * <p>Expressions are translated by {@link RexTranslator}. Anything else fails with
 * {@code NOT_SUPPORTED} naming what is missing.
 */
public final class PhysicalPlanner {
    private final PhysicalPlannerOptions options;
    private final JoinPlanner joins;

    public PhysicalPlanner(PhysicalPlannerOptions options) {
        this.options = requireNonNull(options, "options is null");
        this.joins = new JoinPlanner(options);
    }

    /**
     * The physical plan of {@code root}, whose output columns are named {@code columnNames} (the
     * names the query gave them, which the optimized rel may have lost).
     */
    public ExecutionPlan plan(RelNode root, List<String> columnNames) {
        ExecutionPlan plan = visit(root);
        List<Field> fields = plan.schema().getFields();
        if (fields.size() != columnNames.size()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "The plan produces " + fields.size() + " columns but the query names "
                    + columnNames.size() + ": " + columnNames);
        }
        boolean renamed = false;
        for (int i = 0; i < fields.size(); i++) {
            renamed |= !fields.get(i).getName().equals(columnNames.get(i));
        }
        if (!renamed) {
            return plan;
        }
        if (plan instanceof ProjectionExec projection) {
            return new ProjectionExec(projection.exprs(), columnNames, projection.input());
        }
        List<PhysicalExpr> exprs = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            exprs.add(RexTranslator.column(plan.schema(), i));
        }
        return new ProjectionExec(exprs, columnNames, plan);
    }

    private ExecutionPlan visit(RelNode rel) {
        if (rel instanceof RepeatUnion repeat) {
            return RecursivePlanner.plan(repeat, this::visit);
        }
        Optional<ExecutionPlan> scan = ScanPlanner.tryPlan(rel, options);
        if (scan.isPresent()) {
            return scan.get();
        }
        if (rel instanceof Filter filter) {
            ExecutionPlan input = visit(filter.getInput());
            return new FilterExec(translator(input, rel).translate(filter.getCondition()), input);
        }
        if (rel instanceof Project project) {
            return project(project);
        }
        if (rel instanceof Join join) {
            return joins.plan(join, visit(join.getLeft()), visit(join.getRight()));
        }
        if (rel instanceof Aggregate aggregate) {
            ExecutionPlan input = visit(aggregate.getInput());
            return AggregatePlanner.plan(aggregate, input, translator(input, rel), options.targetPartitions());
        }
        if (rel instanceof Sort sort) {
            return SortPlanner.plan(sort, visit(sort.getInput()));
        }
        if (rel instanceof Window window) {
            ExecutionPlan input = visit(window.getInput());
            return WindowPlanner.plan(window, input, translator(input, rel), options.targetPartitions());
        }
        if (rel instanceof Values values) {
            return values(values);
        }
        if (rel instanceof Union union) {
            return union(union);
        }
        if (rel instanceof LogicalReplicate replicate) {
            return new ReplicateRowsExec(visit(replicate.getInput()));
        }
        if (rel instanceof LogicalUnnest unnest) {
            List<String> names = rel.getRowType().getFieldNames();
            return new UnnestExec(unnest.lists(), names.subList(unnest.passedFields(), names.size()), visit(unnest.getInput()));
        }
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, "The relational operator " + rel.getRelTypeName() + " is not supported");
    }

    private ExecutionPlan project(Project project) {
        for (RexNode expr : project.getProjects()) {
            if (RexOver.containsOver(expr)) {
                // the optimizer turns every windowed projection into a Window
                throw new QuiverException(ErrorCode.PLAN_ERROR, "The optimizer left a window function in a projection: " + expr);
            }
        }
        ExecutionPlan input = visit(project.getInput());
        List<PhysicalExpr> exprs = translator(input, project).translate(project.getProjects());
        return projection(exprs, project.getRowType().getFieldNames(), input);
    }

    /**
     * A ProjectionExec, or {@code input} itself when the projection only selects all its columns in
     * order (names inside a plan are for display; {@link #plan} names the output).
     */
    static ExecutionPlan projection(List<PhysicalExpr> exprs, List<String> names, ExecutionPlan input) {
        boolean identity = exprs.size() == input.schema().getFields().size();
        for (int i = 0; identity && i < exprs.size(); i++) {
            identity = exprs.get(i) instanceof ColumnExpr column && column.index() == i;
        }
        if (identity) {
            return input;
        }
        if (input instanceof ProjectionExec inner && selectsOnce(exprs, inner)) {
            // A selection of another projection's columns: one projection computing them directly.
            List<PhysicalExpr> merged = new ArrayList<>();
            for (PhysicalExpr expr : exprs) {
                merged.add(inner.exprs().get(((ColumnExpr) expr).index()));
            }
            return projection(merged, names, inner.input());
        }
        return new ProjectionExec(exprs, names, input);
    }

    /** Whether {@code exprs} only pick columns of {@code inner}, computed ones at most once each. */
    private static boolean selectsOnce(List<PhysicalExpr> exprs, ProjectionExec inner) {
        Set<Integer> picked = new HashSet<>();
        for (PhysicalExpr expr : exprs) {
            if (!(expr instanceof ColumnExpr column)) {
                return false;
            }
            PhysicalExpr source = inner.exprs().get(column.index());
            boolean cheap = source instanceof ColumnExpr || source instanceof LiteralExpr;
            if (!picked.add(column.index()) && !cheap) {
                return false;
            }
        }
        return true;
    }

    private ExecutionPlan values(Values values) {
        Schema schema = TypeMapping.schema(values.getRowType());
        List<List<Object>> rows = new ArrayList<>();
        for (List<RexLiteral> tuple : values.getTuples()) {
            List<Object> row = new ArrayList<>();
            for (int i = 0; i < tuple.size(); i++) {
                row.add(Literals.value(tuple.get(i), schema.getFields().get(i).getType()));
            }
            rows.add(row);
        }
        return new ValuesExec(schema, rows);
    }

    private ExecutionPlan union(Union union) {
        if (union.getInputs().size() < 1) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "UNION without inputs");
        }
        List<ExecutionPlan> inputs = new ArrayList<>();
        for (RelNode input : union.getInputs()) {
            inputs.add(conform(visit(input), union));
        }
        ExecutionPlan plan = new UnionExec(inputs);
        if (union.all) {
            return plan;
        }
        // UNION DISTINCT: group by every column.
        List<PhysicalExpr> keys = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < plan.schema().getFields().size(); i++) {
            keys.add(RexTranslator.column(plan.schema(), i));
            names.add(plan.schema().getFields().get(i).getName());
        }
        if (plan.outputPartitioning().partitionCount() > 1) {
            plan = new RepartitionExec(plan, new Partitioning.Hash(keys, options.targetPartitions()));
        }
        return new HashAggregateExec(AggregateMode.SINGLE, keys, names, List.of(), plan);
    }

    /** {@code plan} with the union's column names, types and nullability, so every input has one schema. */
    private static ExecutionPlan conform(ExecutionPlan plan, Union union) {
        return conform(plan, union.getRowType());
    }

    /** {@code plan} with {@code rowType}'s column names, types and nullability. */
    static ExecutionPlan conform(ExecutionPlan plan, RelDataType rowType) {
        List<RelDataTypeField> target = rowType.getFieldList();
        List<PhysicalExpr> exprs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        boolean same = true;
        for (int i = 0; i < target.size(); i++) {
            Field field = plan.schema().getFields().get(i);
            ArrowType type = TypeMapping.toArrow(target.get(i).getType());
            boolean nullable = target.get(i).getType().isNullable();
            PhysicalExpr column = new ColumnExpr(i, field.getName(), field.getType(), nullable || field.isNullable());
            exprs.add(RexTranslator.castTo(column, type));
            names.add(target.get(i).getName());
            same &= field.getType().equals(type) && field.isNullable() == nullable && field.getName().equals(target.get(i).getName());
        }
        return same ? plan : new ProjectionExec(exprs, names, plan);
    }

    private RexTranslator translator(ExecutionPlan input, RelNode rel) {
        return new RexTranslator(input.schema(), rel.getCluster().getRexBuilder(), options.divisionByZero());
    }

}
