package dev.quiver.sql.planner;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlStarExclude;
import org.apache.calcite.sql.SqlStarReplace;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Names the columns a query leaves unnamed the way DuckDB does, before validation, so that the
 * names reach results, views, sub-queries and plans alike (Calcite would call them {@code EXPR$n}):
 * an unaliased select item that is not a column gets {@code AS <its DuckDB name>}
 * ({@link ExpressionNames}), the columns of a {@code VALUES} list are {@code col0}, {@code col1},
 * ..., and an unaliased {@code FROM UNNEST(l)} is {@code unnest(unnest)}.
 * A column reference keeps the name as written. The rewrite works on the parsed tree in place,
 * outer queries before inner ones, so that a sub-query inside a name is printed as written.
 */
final class ColumnNames {
    private final ExpressionNames names;

    private ColumnNames(SqlText text) {
        this.names = new ExpressionNames(text);
    }

    /** The parsed query with its unnamed columns named; {@code sql} is the text it was parsed from. */
    static SqlNode apply(SqlNode parsed, String sql) {
        ColumnNames columnNames = new ColumnNames(new SqlText(sql));
        SqlNode root = withValuesNamed(parsed);
        columnNames.visit(root);
        return root;
    }

    private void visit(SqlNode node) {
        if (node instanceof SqlSelect select) {
            nameSelectItems(select);
        }
        if (node instanceof SqlNodeList list) {
            for (int i = 0; i < list.size(); i++) {
                list.set(i, withValuesNamed(list.get(i)));
                visit(list.get(i));
            }
        } else if (node instanceof SqlCall call) {
            List<SqlNode> operands = call.getOperandList();
            for (int i = 0; i < operands.size(); i++) {
                SqlNode operand = operands.get(i);
                if (operand == null) {
                    continue;
                }
                // (VALUES ...) AS v is named as a whole; its VALUES is not wrapped again
                SqlNode named = call.getKind() == SqlKind.AS ? operand
                        : call instanceof SqlSelect || call instanceof SqlJoin ? withTableNamed(operand) : withValuesNamed(operand);
                if (named != operand) {
                    call.setOperand(i, named);
                }
                visit(named);
            }
        }
    }

    /**
     * A VALUES list as {@code SELECT * FROM (VALUES ...) AS "values"(col0, col1, ...)}, DuckDB's
     * names for its columns (also under an ORDER BY, which Calcite cannot change in place).
     */
    private static SqlNode withValuesNamed(SqlNode node) {
        if (node.getKind() == SqlKind.AS && ((SqlCall) node).operandCount() == 2 && ((SqlCall) node).operand(0).getKind() == SqlKind.VALUES) {
            SqlCall as = (SqlCall) node;
            return valuesAs(as.operand(0), as.operand(1));
        }
        if (node instanceof SqlOrderBy orderBy && orderBy.query.getKind() == SqlKind.VALUES) {
            return new SqlOrderBy(orderBy.getParserPosition(), withValuesNamed(orderBy.query), orderBy.orderList, orderBy.offset, orderBy.fetch);
        }
        if (node.getKind() != SqlKind.VALUES) {
            return node;
        }
        SqlParserPos pos = node.getParserPosition();
        SqlNodeList star = new SqlNodeList(List.of(SqlIdentifier.star(pos)), pos);
        return new SqlSelect(pos, null, star, valuesAs(node, new SqlIdentifier("values", SqlParserPos.ZERO)),
                null, null, null, null, null, null, null, null, null);
    }

    /**
     * A FROM item: {@link #withValuesNamed}, and an unaliased {@code UNNEST(l)} named as DuckDB
     * names it, {@code AS unnest(unnest)} (Calcite would call its column {@code EXPR$0}).
     */
    private static SqlNode withTableNamed(SqlNode node) {
        if (node.getKind() != SqlKind.UNNEST || ((SqlCall) node).operandCount() != 1) {
            return withValuesNamed(node);
        }
        SqlIdentifier name = new SqlIdentifier("unnest", SqlParserPos.ZERO);
        return SqlStdOperatorTable.AS.createCall(node.getParserPosition(), node, name, name);
    }

    private static SqlNode valuesAs(SqlNode values, SqlNode alias) {
        List<SqlNode> operands = new ArrayList<>(List.of(values, alias));
        int columns = ((SqlCall) values).operand(0) instanceof SqlCall firstRow ? firstRow.operandCount() : 1;
        for (int i = 0; i < columns; i++) {
            operands.add(new SqlIdentifier("col" + i, SqlParserPos.ZERO));
        }
        return SqlStdOperatorTable.AS.createCall(values.getParserPosition(), operands);
    }

    private void nameSelectItems(SqlSelect select) {
        List<SqlNode> items = new ArrayList<>();
        boolean changed = false;
        for (SqlNode item : select.getSelectList()) {
            if (needsName(item)) {
                SqlParserPos pos = item.getParserPosition();
                items.add(SqlStdOperatorTable.AS.createCall(pos, item, new SqlIdentifier(names.format(item), SqlParserPos.ZERO)));
                changed = true;
            } else {
                items.add(item);
            }
        }
        if (changed) {
            select.setSelectList(new SqlNodeList(items, select.getSelectList().getParserPosition()));
        }
    }

    private static boolean needsName(SqlNode item) {
        return item.getKind() != SqlKind.AS && !(item instanceof SqlIdentifier) && !(item instanceof SqlStarExclude)
                && !(item instanceof SqlStarReplace);
    }
}
