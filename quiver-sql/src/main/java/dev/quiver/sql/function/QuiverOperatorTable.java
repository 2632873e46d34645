package dev.quiver.sql.function;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.function.FunctionRegistry;
import dev.quiver.engine.expr.function.ScalarFunction;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlNameMatcher;

/**
 * The operators SQL text can use: every registry function callable by name (under each of its
 * names), Quiver's {@code +}, {@code -} and {@code EXTRACT} ({@link DatetimeOperators}: the date
 * and time forms typed as DuckDB does), {@code /} ({@link DivisionOperator}: a DOUBLE quotient of
 * two integers), Calcite's standard operators and functions except those
 * these replace, and the few library operators the Babel parser produces ({@code ILIKE},
 * {@code x::type}, {@code TRY_CAST}, {@code date('...')}).
 */
public final class QuiverOperatorTable {
    private QuiverOperatorTable() {}

    public static SqlOperatorTable create(FunctionRegistry registry) {
        List<SqlOperator> functions = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ScalarFunction function : registry.functions()) {
            if (!function.callableByName()) {
                continue;
            }
            for (String name : function.names()) {
                functions.add(new RegistrySqlFunction(name, function));
                names.add(name.toUpperCase(Locale.ROOT));
            }
        }
        SqlOperatorTable library = SqlOperatorTables.of(SqlLibraryOperators.DATE, SqlLibraryOperators.ILIKE,
                SqlLibraryOperators.NOT_ILIKE, SqlLibraryOperators.INFIX_CAST, SqlLibraryOperators.TRY_CAST);
        functions.addAll(DatetimeOperators.ALL);
        functions.add(DivisionOperator.INSTANCE);
        Set<SqlOperator> replaced = new HashSet<>(DatetimeOperators.REPLACED);
        replaced.add(SqlStdOperatorTable.DIVIDE);
        return SqlOperatorTables.chain(SqlOperatorTables.of(functions), new Hiding(SqlStdOperatorTable.instance(), names, replaced), library);
    }

    /** A table without the functions of some names and some operators: the registry's and Quiver's own take their place. */
    private record Hiding(SqlOperatorTable table, Set<String> hiddenFunctions, Set<SqlOperator> hiddenOperators) implements SqlOperatorTable {
        Hiding {
            requireNonNull(table, "table is null");
            hiddenFunctions = Set.copyOf(hiddenFunctions);
            hiddenOperators = Set.copyOf(hiddenOperators);
        }

        @Override
        public void lookupOperatorOverloads(SqlIdentifier opName, SqlFunctionCategory category, SqlSyntax syntax,
                List<SqlOperator> operatorList, SqlNameMatcher nameMatcher) {
            List<SqlOperator> found = new ArrayList<>();
            table.lookupOperatorOverloads(opName, category, syntax, found, nameMatcher);
            found.removeIf(this::hidden);
            operatorList.addAll(found);
        }

        @Override
        public List<SqlOperator> getOperatorList() {
            List<SqlOperator> operators = new ArrayList<>(table.getOperatorList());
            operators.removeIf(this::hidden);
            return operators;
        }

        private boolean hidden(SqlOperator op) {
            return hiddenOperators.contains(op)
                    || op.getSyntax().family == SqlSyntax.FUNCTION && hiddenFunctions.contains(op.getName().toUpperCase(Locale.ROOT));
        }
    }
}
