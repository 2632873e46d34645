package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.CliRunner.Run;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.QuiverException.SqlPosition;
import org.junit.jupiter.api.Test;

/** A failing statement prints one line on stderr and exits 1. */
class SqlErrorsTest {
    @Test
    void failingStatementExits1WithOneLine() {
        Run run = CliRunner.run("sql", "SET no_such_setting = 1");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("Error: INVALID_CONFIGURATION: Unknown setting 'no_such_setting'");
        assertThat(run.err().lines()).hasSize(1);
    }

    @Test
    void failureInAScriptReadFromStdinExits1() {
        Run run = CliRunner.runWithStdin("SET batch_size = 100;\nSET batch_size = many;\n", "sql");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("Error: INVALID_CONFIGURATION: Invalid value 'many' for setting batch_size: expected a whole number, at least 1");
    }

    @Test
    void messageCarriesTheSqlPosition() {
        QuiverException syntax = new QuiverException(ErrorCode.SYNTAX_ERROR, "Encountered \"fro\"", new SqlPosition(2, 7), null);
        assertThat(ErrorReporter.describe(syntax)).isEqualTo("SYNTAX_ERROR: Encountered \"fro\" (line 2, column 7)");

        QuiverException placed = new QuiverException(ErrorCode.SYNTAX_ERROR, "At line 2, column 7: bad", new SqlPosition(2, 7), null);
        assertThat(ErrorReporter.describe(placed)).isEqualTo("SYNTAX_ERROR: At line 2, column 7: bad");
    }

    @Test
    void wrappedQuiverExceptionKeepsItsCodeAndOthersAreInternal() {
        RuntimeException wrapped = new RuntimeException("outer", new QuiverException(ErrorCode.DIVISION_BY_ZERO, "Division by zero"));
        assertThat(ErrorReporter.describe(wrapped)).isEqualTo("DIVISION_BY_ZERO: Division by zero");
        assertThat(ErrorReporter.describe(new IllegalStateException("boom")))
                .isEqualTo("INTERNAL_ERROR: java.lang.IllegalStateException: boom");
    }
}
