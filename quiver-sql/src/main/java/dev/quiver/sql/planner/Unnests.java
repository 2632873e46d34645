package dev.quiver.sql.planner;

import com.google.common.collect.ImmutableList;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Uncollect;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * The first pass over a converted plan: every UNNEST becomes a {@link LogicalUnnest}, so that the
 * optimizer sees rows multiplied by a relational operator — never a value that a rule could move,
 * merge or count as one row.
 *
 * <ul>
 *   <li>A projection with select-list {@code unnest(x)} calls ({@link UnnestFunction}) becomes a
 *       projection of its input's fields, its window functions (DuckDB computes them on the rows
 *       before unnesting) and the calls' lists; a {@link LogicalUnnest} of those lists, zipped; and
 *       the projection again, each call replaced by its element field.
 *   <li>{@code FROM t, UNNEST(t.l) AS u(x)} — Calcite's correlate over an {@code Uncollect} of the
 *       left side's fields — becomes a projection of the left side with the lists, a
 *       {@link LogicalUnnest}, and a projection dropping the lists: no correlation is left.
 *   <li>{@code FROM UNNEST(...)} of lists that do not come from a table is a {@link LogicalUnnest}
 *       of its input.
 * </ul>
 * WITH ORDINALITY, a LEFT JOIN UNNEST and the UNNEST of a map are not supported.
 */
final class Unnests {
    private static final String ELEMENT = "unnest";

    private Unnests() {}

    static RelNode apply(RelNode plan) {
        return plan.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode node) {
                if (node instanceof LogicalCorrelate correlate && uncollectOf(correlate.getRight()) != null) {
                    return lateral(correlate, correlate.getLeft().accept(this));
                }
                RelNode visited = super.visit(node).accept(SUB_QUERIES);
                if (visited instanceof LogicalProject project && project.getProjects().stream().anyMatch(Unnests::hasUnnest)) {
                    return project(project);
                }
                if (visited instanceof Uncollect uncollect) {
                    return standalone(uncollect);
                }
                return visited;
            }
        });
    }

    /** The plans of sub-queries in expressions, rewritten too. */
    private static final RexShuttle SUB_QUERIES = new RexShuttle() {
        @Override
        public RexNode visitSubQuery(RexSubQuery subQuery) {
            RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
            return visited.clone(Unnests.apply(visited.rel));
        }
    };

    private static boolean hasUnnest(RexNode node) {
        return node.accept(new RexVisitorImpl<Boolean>(true) {
            @Override
            public Boolean visitCall(RexCall call) {
                if (UnnestFunction.isCall(call.getOperator())) {
                    return true;
                }
                for (RexNode operand : call.getOperands()) {
                    if (Boolean.TRUE.equals(operand.accept(this))) {
                        return true;
                    }
                }
                return false;
            }
        }) == Boolean.TRUE;
    }

    /** {@code SELECT ..., unnest(x), ...}: see the class comment. */
    private static RelNode project(LogicalProject project) {
        RelNode input = project.getInput();
        RexBuilder rexBuilder = project.getCluster().getRexBuilder();
        int inputFields = input.getRowType().getFieldCount();
        List<RexOver> windows = new ArrayList<>();
        List<RexNode> lists = new ArrayList<>();
        for (RexNode expr : project.getProjects()) {
            expr.accept(new RexVisitorImpl<Void>(true) {
                @Override
                public Void visitOver(RexOver over) {
                    if (!windows.contains(over)) {
                        windows.add(over);
                    }
                    return null;
                }

                @Override
                public Void visitCall(RexCall call) {
                    if (UnnestFunction.isCall(call.getOperator())) {
                        if (hasUnnest(call.getOperands().get(0))) {
                            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "Nested UNNEST calls are not supported");
                        }
                        if (!isNullList(call)) {
                            lists.add(call.getOperands().get(0));
                        }
                        return null;
                    }
                    return super.visitCall(call);
                }
            });
        }
        if (lists.isEmpty()) {
            // only unnest(NULL)s: every row unnests into none
            return LogicalValues.createEmpty(project.getCluster(), project.getRowType());
        }
        List<RexNode> lowerExprs = new ArrayList<>(rexBuilder.identityProjects(input.getRowType()));
        lowerExprs.addAll(windows);
        lowerExprs.addAll(lists);
        RelNode lower = LogicalProject.create(input, List.of(), lowerExprs, (List<String>) null, Set.of());
        List<Integer> listFields = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < lists.size(); i++) {
            listFields.add(inputFields + windows.size() + i);
            names.add(ELEMENT);
        }
        RelNode unnest = unnest(lower, listFields, names);
        // the lists are the lower projection's last fields, and do not pass the unnest
        int firstElement = lowerExprs.size() - lists.size();
        RexShuttle replace = new RexShuttle() {
            private int next;

            @Override
            public RexNode visitOver(RexOver over) {
                return new RexInputRef(inputFields + windows.indexOf(over), over.getType());
            }

            @Override
            public RexNode visitCall(RexCall call) {
                if (UnnestFunction.isCall(call.getOperator())) {
                    // a NULL list pads with NULLs beside the other lists
                    return isNullList(call) ? rexBuilder.makeNullLiteral(call.getType())
                            : element(rexBuilder, unnest, firstElement + next++, call.getType());
                }
                return super.visitCall(call);
            }
        };
        List<RexNode> upper = new ArrayList<>();
        for (RexNode expr : project.getProjects()) {
            upper.add(expr.accept(replace));
        }
        return LogicalProject.create(unnest, project.getHints(), upper, project.getRowType().getFieldNames(), Set.of());
    }

    /** {@code unnest(NULL)}: the unnest of the NULL literal, a NULL list that gives no elements. */
    private static boolean isNullList(RexCall call) {
        return call.getOperands().get(0).getType().getSqlTypeName() == SqlTypeName.NULL;
    }

    /**
     * The Uncollect under a correlate's right side: the right side itself, or under projections and
     * filters of its fields that do not refer to the left side (the converter's {@code AS u(x)}, a
     * WHERE on the elements); null for anything else.
     */
    private static Uncollect uncollectOf(RelNode right) {
        RelNode node = right;
        while (node instanceof LogicalProject project && project.getProjects().stream().noneMatch(RexUtil::containsCorrelation)
                || node instanceof LogicalFilter filter && !RexUtil.containsCorrelation(filter.getCondition())) {
            node = node.getInput(0);
        }
        return node instanceof Uncollect uncollect ? uncollect : null;
    }

    /** {@code FROM t, UNNEST(t.l) AS u(x)} (and {@code CROSS JOIN UNNEST}): see the class comment. */
    private static RelNode lateral(LogicalCorrelate correlate, RelNode left) {
        Uncollect uncollect = uncollectOf(correlate.getRight());
        if (!(uncollect.getInput() instanceof LogicalProject project && project.getInput() instanceof LogicalValues)) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "This lateral UNNEST is not supported: " + uncollect.getInput().getRelTypeName());
        }
        if (correlate.getJoinType() != JoinRelType.INNER) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "A " + correlate.getJoinType() + " JOIN with UNNEST is not supported; "
                    + "write FROM t, UNNEST(t.l) AS u(x) (rows whose list is NULL or empty give no rows)");
        }
        List<RexNode> lists = listsOf(uncollect);
        RexBuilder rexBuilder = correlate.getCluster().getRexBuilder();
        CorrelationId id = correlate.getCorrelationId();
        List<RelDataTypeField> leftFields = left.getRowType().getFieldList();
        RexShuttle decorrelate = new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable variable && variable.id.equals(id)) {
                    int field = access.getField().getIndex();
                    return new RexInputRef(field, leftFields.get(field).getType());
                }
                return super.visitFieldAccess(access);
            }
        };
        int width = leftFields.size();
        List<RexNode> lowerExprs = new ArrayList<>(rexBuilder.identityProjects(left.getRowType()));
        List<Integer> listFields = new ArrayList<>();
        for (RexNode list : lists) {
            listFields.add(lowerExprs.size());
            lowerExprs.add(list.accept(decorrelate));
        }
        RelNode lower = LogicalProject.create(left, List.of(), lowerExprs, (List<String>) null, Set.of());
        List<RelDataTypeField> elementFields = uncollect.getRowType().getFieldList();
        RelNode unnest = unnest(lower, listFields, elementFields.stream().map(RelDataTypeField::getName).toList());
        // the left side's fields and the Uncollect's
        List<RexNode> joined = new ArrayList<>(rexBuilder.identityProjects(left.getRowType()));
        for (int i = 0; i < lists.size(); i++) {
            joined.add(element(rexBuilder, unnest, width + i, elementFields.get(i).getType()));
        }
        RelNode rel = LogicalProject.create(unnest, List.of(), joined, (List<String>) null, Set.of());
        // then the right side's projections and filters, bottom-up, over the left side's fields and their own
        List<RelNode> above = new ArrayList<>();
        for (RelNode node = correlate.getRight(); node != uncollect; node = node.getInput(0)) {
            above.add(0, node);
        }
        for (RelNode node : above) {
            if (node instanceof LogicalFilter filter) {
                rel = LogicalFilter.create(rel, RexUtil.shift(filter.getCondition(), width));
            } else {
                List<RexNode> exprs = new ArrayList<>(rexBuilder.identityProjects(left.getRowType()));
                for (RexNode expr : ((LogicalProject) node).getProjects()) {
                    exprs.add(RexUtil.shift(expr, width));
                }
                rel = LogicalProject.create(rel, List.of(), exprs, (List<String>) null, Set.of());
            }
        }
        List<RexNode> out = new ArrayList<>();
        List<RelDataTypeField> outFields = correlate.getRowType().getFieldList();
        for (int i = 0; i < outFields.size(); i++) {
            RelDataType type = rel.getRowType().getFieldList().get(i).getType();
            RexNode ref = new RexInputRef(i, type);
            out.add(type.equals(outFields.get(i).getType()) ? ref : rexBuilder.makeCast(outFields.get(i).getType(), ref, false, false));
        }
        return LogicalProject.create(rel, List.of(), out, correlate.getRowType().getFieldNames(), Set.of());
    }

    /** {@code FROM UNNEST(x)} of lists that need no table: the elements of its input's lists. */
    private static RelNode standalone(Uncollect uncollect) {
        List<RexNode> lists = listsOf(uncollect);
        RelNode input = uncollect.getInput();
        List<Integer> listFields = new ArrayList<>();
        for (int i = 0; i < lists.size(); i++) {
            listFields.add(i);
        }
        List<RelDataTypeField> elementFields = uncollect.getRowType().getFieldList();
        RelNode unnest = unnest(input, listFields, elementFields.stream().map(RelDataTypeField::getName).toList());
        List<RexNode> out = new ArrayList<>();
        for (int i = 0; i < lists.size(); i++) {
            out.add(element(uncollect.getCluster().getRexBuilder(), unnest, i, elementFields.get(i).getType()));
        }
        return LogicalProject.create(unnest, List.of(), out, uncollect.getRowType().getFieldNames(), Set.of());
    }

    /** The lists an Uncollect unnests: the expressions of the projection below it (one row of Values beneath). */
    private static List<RexNode> listsOf(Uncollect uncollect) {
        if (uncollect.withOrdinality) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "UNNEST ... WITH ORDINALITY is not supported");
        }
        RelNode input = uncollect.getInput();
        List<RexNode> lists = input instanceof LogicalProject project && project.getInput() instanceof LogicalValues
                ? project.getProjects() : uncollect.getCluster().getRexBuilder().identityProjects(input.getRowType());
        for (RelDataTypeField field : input.getRowType().getFieldList()) {
            if (field.getType().getSqlTypeName() != SqlTypeName.ARRAY) {
                throw new QuiverException(ErrorCode.NOT_SUPPORTED, "UNNEST can only be applied to lists, not " + field.getType().getFullTypeString());
            }
        }
        if (uncollect.getRowType().getFieldCount() != lists.size()) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "This UNNEST is not supported: " + uncollect.getRowType());
        }
        return lists;
    }

    /**
     * A {@link LogicalUnnest} of {@code input}'s {@code lists}; when they are list literals
     * ({@code [1, 2, 3]}) over one row of constants, the rows it would give, as Values.
     */
    private static RelNode unnest(RelNode input, List<Integer> lists, List<String> names) {
        LogicalUnnest unnest = LogicalUnnest.create(input, lists, names);
        if (!(input instanceof LogicalProject project && project.getInput() instanceof LogicalValues values && values.getTuples().size() == 1)) {
            return unnest;
        }
        // the projection's expressions, with references to the one row of constants replaced by them
        List<RexNode> exprs = new ArrayList<>();
        for (RexNode expr : project.getProjects()) {
            exprs.add(expr instanceof RexInputRef ref ? values.getTuples().get(0).get(ref.getIndex()) : expr);
        }
        List<RelDataTypeField> fields = unnest.getRowType().getFieldList();
        int longest = 0;
        for (int i = 0; i < exprs.size(); i++) {
            RexNode expr = exprs.get(i);
            if (lists.contains(i)) {
                if (!(expr instanceof RexCall call && call.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR
                        && call.getOperands().stream().allMatch(RexLiteral.class::isInstance))) {
                    return unnest;
                }
                longest = Math.max(longest, call.getOperands().size());
            } else if (!(expr instanceof RexLiteral)) {
                return unnest;
            }
        }
        RexBuilder rexBuilder = input.getCluster().getRexBuilder();
        List<List<RexLiteral>> rows = new ArrayList<>();
        for (int r = 0; r < longest; r++) {
            List<RexLiteral> row = new ArrayList<>();
            for (int i = 0; i < exprs.size(); i++) {
                if (!lists.contains(i)) {
                    row.add((RexLiteral) exprs.get(i));
                }
            }
            for (int list : lists) {
                List<RexNode> elements = ((RexCall) exprs.get(list)).getOperands();
                row.add(r < elements.size() ? (RexLiteral) elements.get(r) : null);
            }
            for (int i = 0; i < row.size(); i++) {
                RelDataType type = fields.get(i).getType();
                RexLiteral literal = row.get(i) == null ? (RexLiteral) rexBuilder.makeNullLiteral(type) : row.get(i);
                if (!SqlTypeUtil.equalSansNullability(literal.getType(), type) || literal.isNull() && !type.isNullable()) {
                    return unnest;
                }
                row.set(i, literal.getType().equals(type) ? literal : (RexLiteral) rexBuilder.makeLiteral(literal.getValue(), type, false));
            }
            rows.add(row);
        }
        return LogicalValues.create(input.getCluster(), unnest.getRowType(),
                ImmutableList.copyOf(rows.stream().map(ImmutableList::copyOf).toList()));
    }

    /** Element field {@code index} of {@code unnest}, as {@code type} (they differ in nullability at most). */
    private static RexNode element(RexBuilder rexBuilder, RelNode unnest, int index, RelDataType type) {
        RelDataType field = unnest.getRowType().getFieldList().get(index).getType();
        RexNode ref = new RexInputRef(index, field);
        return field.equals(type) ? ref : rexBuilder.makeCast(type, ref, false, false);
    }
}
