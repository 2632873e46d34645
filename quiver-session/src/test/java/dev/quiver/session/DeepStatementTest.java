package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.session.ExecutionModes.Mode;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A statement nested deeper than a thread's stack can walk overflows it somewhere: in Calcite's
 * parser, validator or converter on the coordinator, or while a worker decodes or evaluates the
 * plan. Wherever that is, the statement fails with STATEMENT_TOO_COMPLEX, the session goes on and
 * nothing stays behind, in every mode; a depth that fits gives the flat statement's answer.
 */
class DeepStatementTest {
    private static final int TOO_DEEP = 20_000;
    private static ExecutionModes modes;

    @BeforeAll
    static void start() {
        modes = new ExecutionModes(TestTables.catalog());
    }

    @AfterAll
    static void stop() {
        modes.close();
    }

    private static String nestedSum(int depth) {
        return "select sum(" + "(".repeat(depth) + "id" + " + 1)".repeat(depth) + ") as s from t1";
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aStatementTooDeepFailsClearlyAndOneThatFitsIsRight(Mode mode) {
        for (int depth : new int[] {300, 900, 3000}) {
            Object flat = modes.run(mode, "select sum(id + " + depth + ") as s from t1").rows().get(0).get(0);
            try {
                assertThat(modes.run(mode, nestedSum(depth)).rows()).as("depth %d", depth).isEqualTo(List.of(List.of(flat)));
            } catch (QuiverException e) {
                assertThat(e.errorCode()).as("depth %d: %s", depth, e.getMessage()).isEqualTo(ErrorCode.STATEMENT_TOO_COMPLEX);
            }
        }
        assertThatThrownBy(() -> modes.run(mode, nestedSum(TOO_DEEP)))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.STATEMENT_TOO_COMPLEX))
                .hasMessageContaining("nested too deeply");
        String subqueries = "select count(*) as c from " + "(select * from ".repeat(TOO_DEEP) + "t1" + ") x".repeat(TOO_DEEP);
        assertThatThrownBy(() -> modes.run(mode, subqueries))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.STATEMENT_TOO_COMPLEX));
        assertThat(modes.run(mode, "select count(*) as c from t1").rows()).isEqualTo(List.of(List.of(10L)));
        modes.assertNothingLeft();
    }
}
