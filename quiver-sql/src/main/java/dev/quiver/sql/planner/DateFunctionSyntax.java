package dev.quiver.sql.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Calcite's grammar reads some date functions the way other dialects write them: BigQuery's
 * {@code DATE_DIFF(a, b, unit)} (so DuckDB's {@code date_diff('day', a, b)} arrives with its last
 * column read as a unit name), and SQL Server's and Snowflake's {@code DATEDIFF(unit, a, b)},
 * {@code DATEPART(unit, x)} and {@code DATE_PART(unit, x)} with a bare unit. This rewrites each
 * into a call of the registry's {@code date_diff} or {@code date_part} with the unit as a string,
 * DuckDB's form, so one function serves every spelling:
 * <ul>
 * <li>{@code date_diff('day', a, b)} (b a column name) and {@code datediff(day, a, b)}:
 *     {@code date_diff('day', a, b)};
 * <li>BigQuery's {@code DATE_DIFF(a, b, DAY)}: {@code date_diff('day', b, a)};
 * <li>{@code date_part(dow, x)}, {@code datepart(dow, x)}: {@code date_part('dow', x)}.
 * </ul>
 */
final class DateFunctionSyntax extends SqlShuttle {
    private static final DateFunctionSyntax INSTANCE = new DateFunctionSyntax();

    private DateFunctionSyntax() {}

    static SqlNode rewrite(SqlNode node) {
        return node == null ? null : node.accept(INSTANCE);
    }

    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (!(visited instanceof SqlCall rewritten)) {
            return visited;
        }
        List<SqlNode> operands = rewritten.getOperandList();
        SqlParserPos pos = rewritten.getParserPosition();
        if (rewritten.getOperator() == SqlLibraryOperators.DATE_PART || rewritten.getOperator() == SqlLibraryOperators.DATEPART) {
            return call("date_part", pos, unit(operands.get(0)), operands.get(1));
        }
        if (rewritten.getOperator() == SqlLibraryOperators.DATEDIFF && operands.size() == 3) {
            return call("date_diff", pos, unit(operands.get(0)), operands.get(1), operands.get(2));
        }
        if (rewritten.getOperator() == SqlLibraryOperators.DATE_DIFF && operands.size() == 3
                && operands.get(2) instanceof SqlIntervalQualifier qualifier) {
            if (operands.get(0) instanceof SqlCharStringLiteral) {
                // DuckDB's date_diff('part', start, end): the parser took the end column for a unit name
                SqlNode end = qualifier.timeFrameName != null ? new SqlIdentifier(qualifier.timeFrameName, qualifier.getParserPosition())
                        : qualifier;
                return call("date_diff", pos, operands.get(0), operands.get(1), end);
            }
            return call("date_diff", pos, unit(qualifier), operands.get(1), operands.get(0));
        }
        return visited;
    }

    /** A unit as a string literal: a quoted part stays as it is, a bare one ({@code DAY}, {@code dow}) becomes its name. */
    private static SqlNode unit(SqlNode unit) {
        if (unit instanceof SqlIntervalQualifier qualifier) {
            String name = qualifier.timeFrameName != null ? qualifier.timeFrameName : qualifier.timeUnitRange.startUnit.name();
            return SqlLiteral.createCharString(name.toLowerCase(Locale.ROOT), qualifier.getParserPosition());
        }
        return unit;
    }

    private static SqlCall call(String name, SqlParserPos pos, SqlNode... operands) {
        SqlUnresolvedFunction function = new SqlUnresolvedFunction(new SqlIdentifier(name, pos), null, null, null, null,
                SqlFunctionCategory.USER_DEFINED_FUNCTION);
        return function.createCall(pos, new ArrayList<>(List.of(operands)));
    }
}
