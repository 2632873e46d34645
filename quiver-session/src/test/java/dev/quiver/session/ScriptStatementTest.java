package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.QuiverException.SqlPosition;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Scripts split into statements that keep their place in the script, and the shell's end-of-statement test. */
class ScriptStatementTest {
    @Test
    void splitsOnSemicolonsOutsideQuotesAndComments() {
        String script = "select ';' as a; -- one; two\nselect 2 /* ; */ as b;;\n  select \"x;y\" from t";
        List<ScriptStatement> statements = ScriptStatement.split(script);
        assertThat(statements).extracting(ScriptStatement::text)
                .containsExactly("select ';' as a", "select 2         as b", "select \"x;y\" from t");
        assertThat(statements).extracting(ScriptStatement::offset).containsExactly(0, 29, 55);
        assertThat(script.substring(55)).startsWith("select \"x;y\"");
    }

    @Test
    void endsStatementOnlyAtATerminatorOutsideQuotesAndComments() {
        assertThat(ScriptStatement.endsStatement("select 1;")).isTrue();
        assertThat(ScriptStatement.endsStatement("select 1 ;  \n")).isTrue();
        assertThat(ScriptStatement.endsStatement("select 1; -- done")).isTrue();
        assertThat(ScriptStatement.endsStatement("select 1; /* a\n comment */")).isTrue();
        assertThat(ScriptStatement.endsStatement("select 1")).isFalse();
        assertThat(ScriptStatement.endsStatement("select ';")).isFalse();
        assertThat(ScriptStatement.endsStatement("select ';'")).isFalse();
        assertThat(ScriptStatement.endsStatement("select 1 -- ;")).isFalse();
        assertThat(ScriptStatement.endsStatement("select \"a;\"")).isFalse();
        assertThat(ScriptStatement.endsStatement("")).isFalse();
    }

    @Test
    void anErrorInALaterStatementNamesItsLineInTheScript() {
        String script = "select 1;\n\nselect 2 from\n   no_such_table";
        ScriptStatement third = ScriptStatement.split(script).get(1);
        try (QuerySession session = QuerySession.builder().catalog(new MemoryCatalog()).build()) {
            assertThatThrownBy(() -> session.execute(third).collect())
                    .isInstanceOfSatisfying(QuiverException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(ErrorCode.TABLE_NOT_FOUND);
                        assertThat(e.position()).contains(new SqlPosition(4, 4));
                    });
        }
    }
}
