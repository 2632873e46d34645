package dev.quiver.sql.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.QuiverException.SqlPosition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntSupplier;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.SqlStarExclude;
import org.apache.calcite.sql.SqlStarReplace;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlNameMatchers;

/**
 * Expands DuckDB's {@code GROUP BY ALL} (group by every select item that holds no aggregate and is
 * not a constant) and {@code ORDER BY ALL} (order by every output column, left to right, with the
 * direction and NULLS order written after ALL) in the parsed tree, as select-list ordinals. The
 * {@code ALL}s were marked by {@link AllMarkers}; one left where neither clause can take it is a
 * syntax error at its position.
 */
final class ByAll {
    private final SqlOperatorTable operators;
    private final List<AllMarkers.Marker> markers;
    private final Set<AllMarkers.Marker> used = new HashSet<>();
    private final IntSupplier outermostColumns;

    /**
     * @param outermostColumns the number of columns of the outermost query, for an {@code ORDER BY ALL}
     *     over a select list with {@code *} (known only once the query is validated); -1 while that
     *     number is being found, which drops the ORDER BY ALL
     */
    private ByAll(SqlOperatorTable operators, List<AllMarkers.Marker> markers, IntSupplier outermostColumns) {
        this.operators = requireNonNull(operators, "operators is null");
        this.markers = requireNonNull(markers, "markers is null");
        this.outermostColumns = requireNonNull(outermostColumns, "outermostColumns is null");
    }

    static SqlNode expand(SqlNode parsed, List<AllMarkers.Marker> markers, SqlOperatorTable operators, IntSupplier outermostColumns) {
        if (markers.isEmpty()) {
            return parsed;
        }
        ByAll byAll = new ByAll(operators, markers, outermostColumns);
        SqlNode expanded = byAll.visit(parsed, true);
        for (AllMarkers.Marker marker : markers) {
            if (!byAll.used.contains(marker)) {
                throw marker.misplaced();
            }
        }
        return expanded;
    }

    /** The node with its BY ALLs expanded; an ORDER BY is rebuilt (its fields are final), anything else changed in place. */
    private SqlNode visit(SqlNode node, boolean outermost) {
        if (node instanceof SqlNodeList list) {
            for (int i = 0; i < list.size(); i++) {
                if (list.get(i) != null) {
                    list.set(i, visit(list.get(i), false));
                }
            }
            return list;
        }
        if (!(node instanceof SqlCall call)) {
            return node;
        }
        if (call instanceof SqlSelect select) {
            expandGroupBy(select);
        }
        if (call instanceof SqlOrderBy orderBy) {
            SqlNode query = visit(orderBy.query, false);
            return new SqlOrderBy(orderBy.getParserPosition(), query, orderList(orderBy, query, outermost), orderBy.offset, orderBy.fetch);
        }
        List<SqlNode> operands = call.getOperandList();
        for (int i = 0; i < operands.size(); i++) {
            SqlNode operand = operands.get(i);
            if (operand != null) {
                boolean body = call instanceof SqlWith && i == 1 && outermost;
                SqlNode visited = visit(operand, body);
                if (visited != operand) {
                    call.setOperand(i, visited);
                }
            }
        }
        return call;
    }

    private void expandGroupBy(SqlSelect select) {
        SqlNodeList group = select.getGroup();
        AllMarkers.Marker marker = group != null && group.size() == 1 ? markerAt(group.get(0)) : null;
        if (marker == null) {
            return;
        }
        used.add(marker);
        List<SqlNode> items = select.getSelectList().getList();
        boolean star = items.stream().anyMatch(ByAll::isStar);
        boolean aggregates = items.stream().anyMatch(this::hasAggregate);
        if (star && !aggregates && select.getHaving() == null) {
            // every column is a key: the distinct rows
            select.setOperand(0, new SqlNodeList(List.of(SqlSelectKeyword.DISTINCT.symbol(marker.pos())), marker.pos()));
            select.setGroupBy(null);
            return;
        }
        if (star) {
            throw notSupported(marker, "GROUP BY ALL with * and aggregates in the select list is not supported; list the grouping columns");
        }
        List<SqlNode> keys = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            SqlNode expression = stripAs(items.get(i));
            if (!hasAggregate(expression) && !isConstant(expression)) {
                keys.add(SqlLiteral.createExactNumeric(String.valueOf(i + 1), marker.pos()));
            }
        }
        // nothing to group by: no GROUP BY at all, as in DuckDB (one row per input row, or one aggregate row)
        select.setGroupBy(keys.isEmpty() ? null : new SqlNodeList(keys, marker.pos()));
    }

    private SqlNodeList orderList(SqlOrderBy orderBy, SqlNode query, boolean outermost) {
        if (orderBy.orderList.size() != 1) {
            return orderBy.orderList;
        }
        SqlNode item = orderBy.orderList.get(0);
        SqlNode expression = item;
        List<SqlKind> modifiers = new ArrayList<>();
        while (expression.getKind() == SqlKind.DESCENDING || expression.getKind() == SqlKind.NULLS_FIRST
                || expression.getKind() == SqlKind.NULLS_LAST) {
            modifiers.add(0, expression.getKind());
            expression = ((SqlCall) expression).operand(0);
        }
        AllMarkers.Marker marker = markerAt(expression);
        if (marker == null) {
            return orderBy.orderList;
        }
        used.add(marker);
        int columns = columnCount(query, marker, outermost);
        if (columns < 0) {
            return new SqlNodeList(orderBy.orderList.getParserPosition()); // counting the columns: no order yet
        }
        List<SqlNode> items = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
            SqlNode ordinal = SqlLiteral.createExactNumeric(String.valueOf(i), marker.pos());
            for (SqlKind modifier : modifiers) {
                SqlOperator operator = switch (modifier) {
                    case DESCENDING -> SqlStdOperatorTable.DESC;
                    case NULLS_FIRST -> SqlStdOperatorTable.NULLS_FIRST;
                    default -> SqlStdOperatorTable.NULLS_LAST;
                };
                ordinal = operator.createCall(marker.pos(), ordinal);
            }
            items.add(ordinal);
        }
        return new SqlNodeList(items, orderBy.orderList.getParserPosition());
    }

    /** The number of columns of an ordered query: its select list's, or (with a *) the validated outermost query's. */
    private int columnCount(SqlNode query, AllMarkers.Marker marker, boolean outermost) {
        SqlNode first = query;
        while (first.getKind().belongsTo(SqlKind.SET_QUERY)) {
            first = ((SqlCall) first).operand(0);
        }
        if (first instanceof SqlSelect select && select.getSelectList().getList().stream().noneMatch(ByAll::isStar)) {
            return select.getSelectList().size();
        }
        if (outermost) {
            return outermostColumns.getAsInt();
        }
        throw notSupported(marker, "ORDER BY ALL over * is supported only on the outermost query; list the columns");
    }

    private AllMarkers.Marker markerAt(SqlNode node) {
        if (!(node instanceof SqlNumericLiteral)) {
            return null;
        }
        return markers.stream().filter(m -> m.isAt(node.getParserPosition())).findFirst().orElse(null);
    }

    /** Whether the expression calls an aggregate function outside a window and a sub-query. */
    private boolean hasAggregate(SqlNode node) {
        if (!(node instanceof SqlCall call) || call.getKind() == SqlKind.OVER || QueryNames.isQuery(call)) {
            return false;
        }
        if (call.getOperator().isAggregator() || isAggregateFunction(call)) {
            return true;
        }
        return call.getOperandList().stream().anyMatch(operand -> operand != null && hasAggregate(operand));
    }

    private boolean isAggregateFunction(SqlCall call) {
        if (call.getOperator().getSyntax() != SqlSyntax.FUNCTION) {
            return false;
        }
        List<SqlOperator> overloads = new ArrayList<>();
        operators.lookupOperatorOverloads(new SqlIdentifier(call.getOperator().getName(), SqlParserPos.ZERO),
                SqlFunctionCategory.USER_DEFINED_FUNCTION, SqlSyntax.FUNCTION, overloads, SqlNameMatchers.withCaseSensitive(false));
        return overloads.stream().anyMatch(SqlOperator::isAggregator);
    }

    /** An expression without column references or sub-queries: grouping by it changes nothing (DuckDB leaves it out too). */
    private static boolean isConstant(SqlNode node) {
        if (node instanceof SqlIdentifier) {
            return false;
        }
        if (node instanceof SqlCall call) {
            return !QueryNames.isQuery(call) && call.getOperandList().stream().allMatch(operand -> operand == null || isConstant(operand));
        }
        return true;
    }

    private static boolean isStar(SqlNode item) {
        return item instanceof SqlIdentifier identifier && identifier.isStar() || item instanceof SqlStarExclude || item instanceof SqlStarReplace;
    }

    private static SqlNode stripAs(SqlNode item) {
        return item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
    }

    private static QuiverException notSupported(AllMarkers.Marker marker, String message) {
        return new QuiverException(ErrorCode.NOT_SUPPORTED, message + " (at line " + marker.line() + ", column " + marker.column() + ")",
                new SqlPosition(marker.line(), marker.column()), null);
    }
}
