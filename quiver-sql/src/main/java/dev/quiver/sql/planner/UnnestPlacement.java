package dev.quiver.sql.planner;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Where a select-list {@code unnest(l)} ({@link UnnestFunction}) may stand, checked on the validated
 * query as DuckDB's binder checks it: in a select list, inside any expression there, and nowhere
 * else. In WHERE, HAVING, QUALIFY, a JOIN condition, the arguments of an aggregate or a window
 * function, DuckDB fails with "UNNEST not supported here" and so does Quiver (NOT_SUPPORTED), never
 * computing an answer that counts unnested rows where none exist; nested calls fail as in DuckDB.
 * In GROUP BY and ORDER BY, which DuckDB accepts, Quiver does not support it (NOT_SUPPORTED: group
 * or sort by the select list's alias instead).
 */
final class UnnestPlacement {
    private UnnestPlacement() {}

    static SqlNode check(SqlNode validated) {
        query(validated);
        return validated;
    }

    private static void query(@Nullable SqlNode node) {
        if (node == null) {
            return;
        }
        if (node instanceof SqlSelect select) {
            select(select);
        } else if (node instanceof SqlOrderBy orderBy) {
            query(orderBy.query);
            expressions(orderBy.orderList, "ORDER BY");
        } else if (node instanceof SqlWith with) {
            for (SqlNode item : with.withList) {
                query(((SqlWithItem) item).query);
            }
            query(with.body);
        } else if (node instanceof SqlCall call) {
            // set operations, VALUES, and anything else: its operands are queries or rows
            for (SqlNode operand : call.getOperandList()) {
                expression(operand, null);
            }
        }
    }

    private static void select(SqlSelect select) {
        for (SqlNode item : select.getSelectList()) {
            expression(item, null);
        }
        from(select.getFrom());
        expression(select.getWhere(), "a WHERE clause");
        expressions(select.getGroup(), "GROUP BY");
        expression(select.getHaving(), "a HAVING clause");
        expression(select.getQualify(), "a QUALIFY clause");
        expressions(select.getWindowList(), "a WINDOW clause");
        expressions(select.getOrderList(), "ORDER BY");
    }

    private static void from(@Nullable SqlNode from) {
        if (from instanceof SqlJoin join) {
            from(join.getLeft());
            from(join.getRight());
            expression(join.getCondition(), "a JOIN condition");
        } else if (from instanceof SqlCall call && call.getKind() == SqlKind.AS) {
            from(call.operand(0));
        } else if (from instanceof SqlCall call && call.getKind() == SqlKind.UNNEST) {
            // FROM UNNEST(x): x is an expression, not a place for a select-list unnest
            for (SqlNode operand : call.getOperandList()) {
                expression(operand, "an UNNEST in FROM");
            }
        } else {
            query(from);
        }
    }

    private static void expressions(@Nullable SqlNodeList list, String place) {
        if (list != null) {
            for (SqlNode node : list) {
                expression(node, place);
            }
        }
    }

    /**
     * Checks an expression; {@code place} says where it stands when an unnest is not allowed
     * there, null in a select list.
     */
    private static void expression(@Nullable SqlNode node, @Nullable String place) {
        if (node == null) {
            return;
        }
        if (node instanceof SqlSelect || node instanceof SqlOrderBy || node instanceof SqlWith) {
            query(node);
            return;
        }
        if (node instanceof SqlNodeList list) {
            expressions(list, place);
            return;
        }
        if (!(node instanceof SqlCall call)) {
            return;
        }
        String inside = place;
        if (UnnestFunction.isCall(call.getOperator())) {
            if (place != null) {
                throw misplaced(call.getParserPosition(), place);
            }
            inside = "an UNNEST argument";
        } else if (call.getKind() == SqlKind.OVER) {
            inside = place != null ? place : "a window function";
        } else if (call.getOperator().isAggregator()) {
            inside = place != null ? place : "an aggregate's arguments";
        }
        for (SqlNode operand : call.getOperandList()) {
            expression(operand, inside);
        }
    }

    private static QuiverException misplaced(SqlParserPos pos, String place) {
        String message = place.equals("an UNNEST argument")
                ? "Nested UNNEST calls are not supported"
                : "UNNEST is not supported in " + place + ": it can only stand in a select list, or as a table "
                        + "(FROM t, UNNEST(t.l) AS u(x))";
        return new QuiverException(ErrorCode.NOT_SUPPORTED, message + " (at line " + pos.getLineNum() + ", column " + pos.getColumnNum() + ")",
                new QuiverException.SqlPosition(pos.getLineNum(), pos.getColumnNum()), null);
    }
}
