package dev.quiver.sql.planner;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;

/**
 * A sub-query inside an expression name, as DuckDB prints it: {@code (SELECT max(id) FROM t WHERE (k > 1))}.
 * SELECT lists, tables with aliases, inner joins, WHERE, GROUP BY, HAVING, ORDER BY, LIMIT and
 * OFFSET are spelled DuckDB's way; any other shape of FROM keeps its SQL text.
 */
final class QueryNames {
    private final ExpressionNames expressions;

    QueryNames(ExpressionNames expressions) {
        this.expressions = requireNonNull(expressions, "expressions is null");
    }

    static boolean isQuery(SqlNode node) {
        return node.getKind() == SqlKind.SELECT || node.getKind() == SqlKind.ORDER_BY || node.getKind().belongsTo(SqlKind.SET_QUERY);
    }

    String format(SqlNode query) {
        if (query instanceof SqlSelect select) {
            return select(select);
        }
        if (query instanceof SqlOrderBy orderBy) {
            String inner = format(orderBy.query);
            String order = orderBy.orderList.isEmpty() ? "" : " ORDER BY " + expressions.orderItems(orderBy.orderList.getList());
            String limit = orderBy.fetch == null ? "" : " LIMIT " + expressions.format(orderBy.fetch);
            String offset = orderBy.offset == null ? "" : " OFFSET " + expressions.format(orderBy.offset);
            return inner + order + limit + offset;
        }
        if (query.getKind().belongsTo(SqlKind.SET_QUERY) && query instanceof SqlCall setOperation) {
            String operator = " " + setOperation.getOperator().getName() + " ";
            return "(" + setOperation.getOperandList().stream().map(branch -> "(" + format(branch) + ")")
                    .collect(Collectors.joining(operator)) + ")";
        }
        return expressions.asWritten(query);
    }

    private String select(SqlSelect select) {
        StringBuilder out = new StringBuilder("SELECT ");
        if (select.isDistinct()) {
            out.append("DISTINCT ");
        }
        out.append(select.getSelectList().getList().stream().map(this::selectItem).collect(Collectors.joining(", ")));
        if (select.getFrom() != null) {
            out.append(" FROM ").append(from(select.getFrom()));
        }
        if (select.getWhere() != null) {
            out.append(" WHERE ").append(expressions.format(select.getWhere()));
        }
        if (select.getGroup() != null && !select.getGroup().isEmpty()) {
            out.append(" GROUP BY ").append(expressions.list(select.getGroup().getList()));
        }
        if (select.getHaving() != null) {
            out.append(" HAVING ").append(expressions.format(select.getHaving()));
        }
        return out.toString();
    }

    private String selectItem(SqlNode item) {
        if (item.getKind() == SqlKind.AS) {
            List<SqlNode> operands = ((SqlCall) item).getOperandList();
            return expressions.format(operands.get(0)) + " AS " + ExpressionNames.identifier((SqlIdentifier) operands.get(1));
        }
        return expressions.format(item);
    }

    private String from(SqlNode from) {
        if (from instanceof SqlIdentifier table) {
            return ExpressionNames.identifier(table);
        }
        if (from.getKind() == SqlKind.AS && ((SqlCall) from).operandCount() == 2 && ((SqlCall) from).operand(0) instanceof SqlIdentifier table) {
            return ExpressionNames.identifier(table) + " AS " + ExpressionNames.identifier(((SqlCall) from).operand(1));
        }
        if (from instanceof SqlJoin join && join.getJoinType() == JoinType.INNER && join.getCondition() != null) {
            return "(" + from(join.getLeft()) + " INNER JOIN " + from(join.getRight()) + " ON (" + expressions.format(join.getCondition()) + "))";
        }
        return expressions.asWritten(from);
    }
}
