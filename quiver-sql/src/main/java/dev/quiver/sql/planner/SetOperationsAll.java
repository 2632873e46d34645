package dev.quiver.sql.planner;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;

/**
 * {@code INTERSECT ALL} and {@code EXCEPT ALL} as a count per distinct row and a replication, so
 * that they distribute like any aggregate: the inputs, each with a 1 in its own count column and
 * 0 in the others, are unioned and grouped by every column; a row is then emitted
 * {@code min(c1, ..., cn)} times for INTERSECT ALL and {@code c1 - (c2 + ... + cn)} times for
 * EXCEPT ALL ({@link LogicalReplicate}). Grouping treats NULLs as equal, as set operations must.
 * (The distinct forms become semi and anti joins, Calcite's rules.)
 */
final class SetOperationsAll {
    private SetOperationsAll() {}

    static RelNode apply(RelNode rel, RelBuilder builder) {
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode node = super.visit(other);
                if (node instanceof SetOp setOp && setOp.all && (node instanceof Intersect || node instanceof Minus)) {
                    return rewrite(setOp, builder);
                }
                return node;
            }
        });
    }

    private static RelNode rewrite(SetOp setOp, RelBuilder builder) {
        RexBuilder rex = builder.getRexBuilder();
        int inputs = setOp.getInputs().size();
        int width = setOp.getRowType().getFieldCount();
        for (int k = 0; k < inputs; k++) {
            builder.push(setOp.getInputs().get(k));
            List<RexNode> columns = new ArrayList<>(builder.fields());
            for (int j = 0; j < inputs; j++) {
                columns.add(rex.makeBigintLiteral(BigDecimal.valueOf(j == k ? 1 : 0)));
            }
            builder.project(columns);
        }
        builder.union(true, inputs);
        List<RelBuilder.AggCall> counts = new ArrayList<>();
        for (int j = 0; j < inputs; j++) {
            counts.add(builder.sum(builder.field(width + j)).as("count" + j));
        }
        builder.aggregate(builder.groupKey(builder.fields().subList(0, width)), counts);
        List<RexNode> columns = new ArrayList<>(builder.fields().subList(0, width));
        columns.add(setOp instanceof Intersect ? least(builder, width, inputs) : difference(builder, width, inputs));
        builder.project(columns);
        RelNode replicated = LogicalReplicate.create(builder.build());
        return builder.push(replicated).convert(setOp.getRowType(), true).build();
    }

    /** {@code min(c1, ..., cn)} as nested CASEs. */
    private static RexNode least(RelBuilder builder, int width, int inputs) {
        RexNode least = builder.field(width);
        for (int j = 1; j < inputs; j++) {
            RexNode next = builder.field(width + j);
            least = builder.call(SqlStdOperatorTable.CASE, builder.lessThan(least, next), least, next);
        }
        return least;
    }

    /** {@code c1 - c2 - ... - cn}: the first input's rows less those of every other. */
    private static RexNode difference(RelBuilder builder, int width, int inputs) {
        RexNode difference = builder.field(width);
        for (int j = 1; j < inputs; j++) {
            difference = builder.call(SqlStdOperatorTable.MINUS, difference, builder.field(width + j));
        }
        return difference;
    }
}
