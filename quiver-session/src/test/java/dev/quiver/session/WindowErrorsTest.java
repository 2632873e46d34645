package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad window SQL fails with its code and the position of the mistake, and the session goes on. */
class WindowErrorsTest {
    private QuerySession session;

    @BeforeEach
    void open() {
        session = QuerySession.builder().catalog(WindowTables.catalog()).targetPartitions(2).batchSize(16).build();
    }

    @AfterEach
    void close() {
        assertThat(session.memoryPool().used()).isZero();
        session.close();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "select id from w where row_number() over (order by id) = 1 | INVALID_ARGUMENT | 1 | 24 | illegal in WHERE",
        "select id, sum(v) over (order by id rows between -1 preceding and current row) from w | INVALID_ARGUMENT | 1 | 50 | must not be negative",
        "select id, sum(v) over (order by o range between -2 preceding and current row) from w | INVALID_ARGUMENT | 1 | 50 | must not be negative",
        "select id, sum(v) over (order by d range between interval '-3' day preceding and current row) from w | INVALID_ARGUMENT | 1 | 50 | must not be negative",
        "select id, sum(v) over (order by id rows between o preceding and current row) from w | INVALID_ARGUMENT | 1 | 50 | must be constants",
        "select id, sum(v) over (order by id rows between 1 + 1 preceding and current row) from w | INVALID_ARGUMENT | 1 | 50 | must be constants",
        "select id, ntile(0) over (order by id) from w | INVALID_ARGUMENT | 1 | 18 | NTILE must be greater than zero",
        "select id, nth_value(v, 0) over (order by id) from w | INVALID_ARGUMENT | 1 | 25 | NTH_VALUE must be greater than zero",
        "select id, ntile(o) over (order by id) from w | INVALID_ARGUMENT | 1 | 12 | must be a literal",
        "select id, sum(v) over (order by h range between 1 preceding and current row) from w | INVALID_ARGUMENT | 1 | 50 | prohibits use of RANGE",
        "select id, sum(v) over (order by o, id range between 1 preceding and current row) from w | INVALID_ARGUMENT | 1 | 40 | compound ORDER BY",
        "select id, sum(v) over (order by id rows between 1 following and 1 preceding) from w | INVALID_ARGUMENT | 1 | 66 | cannot be PRECEDING",
        "select id, rank() over (partition by g) from w | INVALID_ARGUMENT | 1 | 24 | require ORDER BY",
        "select id, sum(v) over w2 from w window w1 as (order by id) | INVALID_ARGUMENT | 1 | 24 | not found",
    })
    void failsWithCodeAndPosition(String sql, ErrorCode code, int line, int column, String message) {
        assertThatThrownBy(() -> session.executeScript(sql))
                .isInstanceOfSatisfying(QuiverException.class, e -> {
                    assertThat(e.errorCode()).as(e.getMessage()).isEqualTo(code);
                    assertThat(e.getMessage()).containsIgnoringCase(message);
                    assertThat(e.position()).as(e.getMessage()).contains(new QuiverException.SqlPosition(line, column));
                });
        assertThat(session.executeScript("select count(*), sum(rn) from (select row_number() over (order by id) as rn from w) x").rows())
                .containsExactly(List.of((long) WindowTables.ROWS, (long) WindowTables.ROWS * (WindowTables.ROWS + 1) / 2));
    }
}
