package dev.quiver.sql.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.QuiverException.SqlPosition;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SqlPlannerErrorsTest {
    private final SqlPlanner planner = new SqlPlanner(new TestingTpchCatalog(),
            Map.of("broken", "select no_such_column from nation", "cycle_a", "select * from cycle_b", "cycle_b", "select * from cycle_a"));

    @Test
    void syntaxErrorSaysWhere() {
        QuiverException e = error("select from nation");

        assertThat(e.errorCode()).isEqualTo(ErrorCode.SYNTAX_ERROR);
        assertThat(e.position()).contains(new SqlPosition(1, 8));
        assertThat(e.getMessage()).startsWith("Syntax error at line 1, column 8: Encountered \"from").doesNotContain("\n");
    }

    @Test
    void syntaxErrorOnALaterLine() {
        QuiverException e = error("select n_name\nfrom nation\nwhere n_name = 'x' or");

        assertThat(e.errorCode()).isEqualTo(ErrorCode.SYNTAX_ERROR);
        assertThat(e.position()).contains(new SqlPosition(3, 20));
        assertThat(e.getMessage()).startsWith("Syntax error at line 3, column 20: ");
    }

    @Test
    void unknownTable() {
        QuiverException e = error("select * from nations");

        assertThat(e.errorCode()).isEqualTo(ErrorCode.TABLE_NOT_FOUND);
        assertThat(e.position()).contains(new SqlPosition(1, 15));
        assertThat(e.getMessage()).isEqualTo("Table 'nations' not found (at line 1, column 15)");
    }

    @Test
    void unknownColumn() {
        QuiverException e = error("select n_name,\n  n_nam from nation");

        assertThat(e.errorCode()).isEqualTo(ErrorCode.COLUMN_NOT_FOUND);
        assertThat(e.position()).contains(new SqlPosition(2, 3));
        assertThat(e.getMessage()).isEqualTo("Column 'n_nam' not found in any table (at line 2, column 3)");
    }

    @Test
    void stringPlusNumberIsATypeMismatch() {
        QuiverException e = error("select 'a' + 1 from nation");

        assertThat(e.errorCode()).isEqualTo(ErrorCode.TYPE_MISMATCH);
        assertThat(e.position()).contains(new SqlPosition(1, 8));
        assertThat(e.getMessage()).isEqualTo("Cannot apply '+' to arguments of type '<CHAR(1)> + <INTEGER>' (at line 1, column 8)");
    }

    @Test
    void dateComparedWithIntegerIsATypeMismatch() {
        QuiverException e = error("select * from orders where o_orderdate = 1");

        assertThat(e.errorCode()).isEqualTo(ErrorCode.TYPE_MISMATCH);
        assertThat(e.position()).contains(new SqlPosition(1, 28));
        assertThat(e.getMessage()).startsWith("Cannot apply '=' to arguments of type '<DATE> = <INTEGER>'");
    }

    @Test
    void sumOfStringsIsATypeMismatch() {
        assertThat(error("select sum(n_name) from nation").errorCode()).isEqualTo(ErrorCode.TYPE_MISMATCH);
    }

    @Test
    void unknownFunction() {
        QuiverException e = error("select n_name, foo(n_nationkey) from nation");

        assertThat(e.errorCode()).isEqualTo(ErrorCode.FUNCTION_NOT_FOUND);
        assertThat(e.position()).contains(new SqlPosition(1, 16));
        assertThat(e.getMessage()).startsWith("Function 'foo' not found");
    }

    @Test
    void knownFunctionWithWrongArgumentTypesIsATypeMismatch() {
        QuiverException e = error("select substring(n_name, 'x') from nation");

        assertThat(e.errorCode()).isEqualTo(ErrorCode.TYPE_MISMATCH);
        assertThat(e.position()).contains(new SqlPosition(1, 8));
    }

    @Test
    void aColumnNeitherGroupedNorAggregatedIsAnInvalidAggregation() {
        QuiverException e = error("select n_name, count(*) from nation");

        assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_AGGREGATION);
        assertThat(e.getMessage()).isEqualTo("Expression 'n_name' is not being grouped (at line 1, column 8)");
    }

    @Test
    void otherSemanticErrorsAreInvalidArguments() {
        QuiverException e = error("select n_name from nation where n_name");

        assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(e.getMessage()).isEqualTo("WHERE clause must be a condition (at line 1, column 33)");
    }

    @Test
    void aWindowFunctionInWhereIsRefusedWithItsPosition() {
        QuiverException e = error("select n_name from nation where row_number() over (order by n_name) = 1");

        assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(e.getMessage()).isEqualTo("Windowed aggregate expression is illegal in WHERE clause (at line 1, column 33)");
    }

    @Test
    void groupByAllOverStarWithAggregatesIsNotSupported() {
        QuiverException e = error("select *, count(*) from nation\ngroup by all");

        assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED);
        assertThat(e.position()).contains(new SqlPosition(2, 10));
        assertThat(e.getMessage()).startsWith("GROUP BY ALL with * and aggregates in the select list is not supported");
    }

    @Test
    void allInAnotherPlaceIsASyntaxError() {
        QuiverException e = error("select n_name, count(*) over (order by all) from nation");

        assertThat(e.errorCode()).isEqualTo(ErrorCode.SYNTAX_ERROR);
        assertThat(e.position()).contains(new SqlPosition(1, 40));
        assertThat(e.getMessage()).isEqualTo("Syntax error at line 1, column 40: ORDER BY ALL is not allowed here");
    }

    @Test
    void errorInAViewNamesTheView() {
        QuiverException e = error("select * from broken");

        assertThat(e.errorCode()).isEqualTo(ErrorCode.COLUMN_NOT_FOUND);
        assertThat(e.getMessage()).startsWith("In view 'broken': Column 'no_such_column' not found");
    }

    @Test
    void cyclicViewsFailInsteadOfRecursing() {
        QuiverException e = error("select * from cycle_a");

        assertThat(e.errorCode()).isEqualTo(ErrorCode.TABLE_NOT_FOUND);
        assertThat(e.getMessage()).contains("Table 'cycle_a' not found");
    }

    @Test
    void viewColumnsReportsErrorsOfTheViewBody() {
        assertThatThrownBy(() -> planner.viewColumns("select * from nowhere"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TABLE_NOT_FOUND));
    }

    private QuiverException error(String sql) {
        try {
            planner.plan(sql);
        } catch (QuiverException e) {
            return e;
        }
        throw new AssertionError("planning did not fail: " + sql);
    }
}
