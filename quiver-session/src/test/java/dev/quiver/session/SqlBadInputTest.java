package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.QuiverException.SqlPosition;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad input gets its error code and the line and column of the fault in the text the user wrote
 * (in a script, a statement's own line; after EXPLAIN or CREATE VIEW ... AS, the column in the
 * statement), and the session goes on.
 */
class SqlBadInputTest {
    private QuerySession session;

    @BeforeEach
    void open() {
        session = QuerySession.builder().catalog(TestTables.catalog()).targetPartitions(2).batchSize(4).build();
    }

    @AfterEach
    void close() {
        assertThat(session.memoryPool().used()).isZero();
        session.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        // aggregates where SQL allows none
        "select sum(sum(amount)) from t1 | INVALID_AGGREGATION | 1 | 8",
        "select k, max(count(*)) from t1 group by k | INVALID_AGGREGATION | 1 | 11",
        "select id, count(*) from t1 | INVALID_AGGREGATION | 1 | 8",
        "select id from t1 where count(*) > 1 | INVALID_AGGREGATION | 1 | 25",
        "select k from t1 group by sum(id) | INVALID_AGGREGATION | 1 | 27",
        "select id from t1 join t2 on count(*) = 1 | INVALID_AGGREGATION | 1 | 30",
        // unknown names
        "select nosuch from t1 | COLUMN_NOT_FOUND | 1 | 8",
        "select t1.nosuch from t1 | COLUMN_NOT_FOUND | 1 | 11",
        "select id from t1 order by nosuch | COLUMN_NOT_FOUND | 1 | 28",
        "select * exclude (nope) from t1 | COLUMN_NOT_FOUND | 1 | 19",
        "select nosuch.id from t1 | TABLE_NOT_FOUND | 1 | 8",
        "select * from nosuch | TABLE_NOT_FOUND | 1 | 15",
        "select nosuchfn(id) from t1 | FUNCTION_NOT_FOUND | 1 | 8",
        // type errors
        "select upper(id) from t1 | TYPE_MISMATCH | 1 | 8",
        "select id + name from t1 | TYPE_MISMATCH | 1 | 8",
        "select sum(name) from t1 | TYPE_MISMATCH | 1 | 8",
        "select id from t1 where d = true | TYPE_MISMATCH | 1 | 25",
        // shapes
        "select id from t1 where name | INVALID_ARGUMENT | 1 | 25",
        "select id from t1 union select id, k from t1 | INVALID_ARGUMENT | 1 | 32",
        "select k from t1 intersect all select k, v from t2 | INVALID_ARGUMENT | 1 | 39",
        "select id from t1 limit -1 | SYNTAX_ERROR | 1 | 19",
        "select k, count(*) from t1 group by all, k | SYNTAX_ERROR | 1 | 40",
        "select *, count(*) from t1 group by all | NOT_SUPPORTED | 1 | 37",
        "select k, count(*) over (order by all) from t1 | SYNTAX_ERROR | 1 | 35",
    })
    void failsWithCodeAndPosition(String sql, ErrorCode code, int line, int column) {
        assertFails(sql, code, new SqlPosition(line, column));
    }

    @Test
    void positionsCountInTheTextTheUserWrote() {
        assertFails("select id,\n       nosuch\nfrom t1", ErrorCode.COLUMN_NOT_FOUND, new SqlPosition(2, 8));
        assertFails("\n\n  select id,\n       nosuch\nfrom t1", ErrorCode.COLUMN_NOT_FOUND, new SqlPosition(4, 8));
        assertFails("-- a comment\nselect nosuch from t1", ErrorCode.COLUMN_NOT_FOUND, new SqlPosition(2, 8));
        assertFails("select id from t1 where\n\tnosuch = 1", ErrorCode.COLUMN_NOT_FOUND, new SqlPosition(2, 2));
        assertFails("select 'it''s', \"id\",\n  nosuch from t1", ErrorCode.COLUMN_NOT_FOUND, new SqlPosition(2, 3));
        assertFails("explain select nosuch from t1", ErrorCode.COLUMN_NOT_FOUND, new SqlPosition(1, 16));
        assertFails("explain analyze select id,\n  nosuch from t1", ErrorCode.COLUMN_NOT_FOUND, new SqlPosition(2, 3));
        assertFails("create view v as\n  select id,\n    nosuch from t1", ErrorCode.COLUMN_NOT_FOUND, new SqlPosition(3, 5));
        assertFails("select id from t1\nwhere id > 1 and\n   sum(amount) > 1", ErrorCode.INVALID_AGGREGATION, new SqlPosition(3, 4));
        assertFails("select id from t1\n  where\n    id = 'a' ||", ErrorCode.SYNTAX_ERROR, new SqlPosition(3, 14));
    }

    @Test
    void aScriptsStatementReportsItsOwnLine() {
        assertThatThrownBy(() -> session.executeScript("select 1;\nselect id,\n       nosuch\nfrom t1;\nselect 2"))
                .isInstanceOfSatisfying(QuiverException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.COLUMN_NOT_FOUND);
                    assertThat(e.position()).contains(new SqlPosition(3, 8));
                    assertThat(e.getMessage()).contains("line 3, column 8");
                });
        assertThatThrownBy(() -> session.executeScript("select 1;   select nosuch from t1"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.position()).contains(new SqlPosition(1, 20)));
        assertThatThrownBy(() -> session.executeScript("create view v as select 1 as x;\n\n  select * from v where\n  nosuch = 1;"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.position()).contains(new SqlPosition(4, 3)));
        session.executeScript("drop view v");
    }

    @Test
    void aRecursivePartThatWidensAColumnIsATypeError() {
        assertFails("with recursive r(n) as (select 1.5 union all select n + 1.25 from r where n < 5) select * from r",
                ErrorCode.TYPE_MISMATCH, null);
        assertThat(session.executeScript("with recursive r(n) as (select cast(1.5 as decimal(10,2)) union all"
                + " select cast(n + 1.25 as decimal(10,2)) from r where n < 5) select count(*) from r").rows()).containsExactly(List.of(4L));
    }

    private void assertFails(String sql, ErrorCode code, SqlPosition position) {
        assertThatThrownBy(() -> session.executeScript(sql)).as(sql).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).as(e.getMessage()).isEqualTo(code);
            if (position != null) {
                assertThat(e.position()).as(e.getMessage()).contains(position);
                assertThat(e.getMessage()).contains(position.toString());
            }
        });
        assertThat(session.memoryPool().used()).isZero();
        assertThat(session.executeScript("select count(*) from t1").rows()).containsExactly(List.of(10L));
    }
}
