package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad input gives an error with the right code, never a wrong number, and the session lives on. */
class SqlErrorsTest {
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

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "select k * 9223372036854775807 from t1 | NUMERIC_VALUE_OUT_OF_RANGE",
        "select id + 2147483647 from t1 | NUMERIC_VALUE_OUT_OF_RANGE",
        "select -k - 9223372036854775807 from t1 | NUMERIC_VALUE_OUT_OF_RANGE",
        "select sum(x) from (values (9223372036854775807), (1)) as v(x) | NUMERIC_VALUE_OUT_OF_RANGE",
        "select id / (id - id) from t1 | DIVISION_BY_ZERO",
        "select amount / (k - k) from t1 where k is not null | DIVISION_BY_ZERO",
        "select cast(name as integer) from t1 | INVALID_CAST",
        "select nope from t1 | COLUMN_NOT_FOUND",
        "select * from nope | TABLE_NOT_FOUND",
        "select id from t1 where | SYNTAX_ERROR",
        "insert into t1 values (1) | NOT_SUPPORTED",
        "select id from t1 where k = (select k from t2) | SUBQUERY_MULTIPLE_ROWS",
        "select id, (select v from t2 where t2.k = t1.k) from t1 | SUBQUERY_MULTIPLE_ROWS",
    })
    void failsWithCode(String sql, ErrorCode code) {
        assertThatThrownBy(() -> session.executeScript(sql))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).as(e.getMessage()).isEqualTo(code));
        assertThat(session.memoryPool().used()).isZero();
        assertThat(session.executeScript("select count(*) from t1").rows()).containsExactly(java.util.List.of(10L));
    }
}
