package dev.quiver.engine.expr;

import static dev.quiver.engine.expr.ExprTesting.evalColumn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;

class CastExprTest {
    private static List<Object> cast(TestingContext testing, ArrowType from, ArrowType to, Object... values) {
        return evalColumn(testing.allocator(), from, Arrays.asList(values), c -> new CastExpr(c, to));
    }

    private static int day(String iso) {
        return (int) LocalDate.parse(iso).toEpochDay();
    }

    @Test
    void numericCasts() {
        try (TestingContext testing = new TestingContext()) {
            assertThat(cast(testing, QuiverTypes.INT32, QuiverTypes.INT64, 1, null, -5)).containsExactly(1L, null, -5L);
            assertThat(cast(testing, QuiverTypes.INT64, QuiverTypes.INT32, 1L, null, -5L)).containsExactly(1, null, -5);
            assertThat(cast(testing, QuiverTypes.INT32, QuiverTypes.decimal(10, 2), 7, -3)).containsExactly(new BigDecimal("7.00"), new BigDecimal("-3.00"));
            assertThat(cast(testing, QuiverTypes.decimal(10, 3), QuiverTypes.decimal(10, 1), new BigDecimal("1.250"), new BigDecimal("-1.250"),
                    new BigDecimal("1.249"))).containsExactly(new BigDecimal("1.3"), new BigDecimal("-1.3"), new BigDecimal("1.2"));
            assertThat(cast(testing, QuiverTypes.decimal(10, 2), QuiverTypes.INT64, new BigDecimal("2.50"), new BigDecimal("-2.50"), new BigDecimal("2.49")))
                    .containsExactly(3L, -3L, 2L);
            assertThat(cast(testing, QuiverTypes.decimal(15, 2), QuiverTypes.FLOAT64, new BigDecimal("12.25"), null)).containsExactly(12.25, null);
            // as DuckDB: x * 10^scale rounded in double arithmetic (1.005 * 100 = 100.49999999999999), and halves to even for integers
            assertThat(cast(testing, QuiverTypes.FLOAT64, QuiverTypes.decimal(10, 2), 1.005, -2.5, 2.675))
                    .containsExactly(new BigDecimal("1.00"), new BigDecimal("-2.50"), new BigDecimal("2.68"));
            assertThat(cast(testing, QuiverTypes.FLOAT64, QuiverTypes.INT32, 2.5, -2.5, 3.5)).containsExactly(2, -2, 4);
            assertThat(cast(testing, QuiverTypes.decimal(38, 0), QuiverTypes.decimal(38, 2), new BigDecimal("12345678901234567890")))
                    .containsExactly(new BigDecimal("12345678901234567890.00"));
        }
    }

    @Test
    void castOutOfRange() {
        try (TestingContext testing = new TestingContext()) {
            assertThatThrownBy(() -> cast(testing, QuiverTypes.INT64, QuiverTypes.INT32, 3_000_000_000L))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE))
                    .hasMessageContaining("CAST(c0@0 AS INTEGER)");
            assertThatThrownBy(() -> cast(testing, QuiverTypes.decimal(20, 1), QuiverTypes.INT32, new BigDecimal("3000000000.0")))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE))
                    .hasMessageContaining("CAST(c0@0 AS INTEGER)");
            assertThatThrownBy(() -> cast(testing, QuiverTypes.decimal(10, 2), QuiverTypes.decimal(3, 1), new BigDecimal("100.00")))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE));
        }
    }

    @Test
    void stringCasts() {
        try (TestingContext testing = new TestingContext()) {
            assertThat(cast(testing, QuiverTypes.UTF8, QuiverTypes.INT32, " 42 ", null, "-7")).containsExactly(42, null, -7);
            assertThat(cast(testing, QuiverTypes.UTF8, QuiverTypes.decimal(10, 2), "3.145", "-0.5")).containsExactly(new BigDecimal("3.15"), new BigDecimal("-0.50"));
            assertThat(cast(testing, QuiverTypes.UTF8, QuiverTypes.FLOAT64, "1e3")).containsExactly(1000.0);
            assertThat(cast(testing, QuiverTypes.UTF8, QuiverTypes.DATE32, "1998-12-01", "2000-02-29", "1969-12-31"))
                    .containsExactly(day("1998-12-01"), day("2000-02-29"), -1);
            assertThat(cast(testing, QuiverTypes.DATE32, QuiverTypes.UTF8, day("1995-03-15"), 0, null, day("0099-01-02")))
                    .containsExactly("1995-03-15", "1970-01-01", null, "0099-01-02");
            assertThat(cast(testing, QuiverTypes.INT64, QuiverTypes.UTF8, 12L, -3L)).containsExactly("12", "-3");
            assertThat(cast(testing, QuiverTypes.decimal(10, 2), QuiverTypes.UTF8, new BigDecimal("0.10"))).containsExactly("0.10");
            assertThatThrownBy(() -> cast(testing, QuiverTypes.UTF8, QuiverTypes.INT32, "12a"))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CAST))
                    .hasMessageContaining("'12a'");
            assertThatThrownBy(() -> cast(testing, QuiverTypes.UTF8, QuiverTypes.DATE32, "1999-02-29"))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CAST))
                    .hasMessageContaining("1999-02-29");
        }
    }

    @Test
    void dateTimestamp() {
        try (TestingContext testing = new TestingContext()) {
            assertThat(cast(testing, QuiverTypes.DATE32, QuiverTypes.TIMESTAMP, 1, -1)).containsExactly(86_400_000_000L, -86_400_000_000L);
            assertThat(cast(testing, QuiverTypes.TIMESTAMP, QuiverTypes.DATE32, 86_400_000_001L, -1L)).containsExactly(1, -1);
            long micros = LocalDate.parse("1998-09-02").toEpochDay() * 86_400_000_000L + 3_723_000_004L;
            assertThat(cast(testing, QuiverTypes.TIMESTAMP, QuiverTypes.UTF8, micros)).containsExactly("1998-09-02 01:02:03.000004");
            assertThat(cast(testing, QuiverTypes.UTF8, QuiverTypes.TIMESTAMP, "1998-09-02 01:02:03.000004", "1998-09-02")).containsExactly(micros,
                    LocalDate.parse("1998-09-02").toEpochDay() * 86_400_000_000L);
            assertThat(evalColumn(testing.allocator(), QuiverTypes.TIMESTAMP, Arrays.asList(micros, null),
                    c -> new ScalarFunctionExpr(ExprTesting.function("month"), java.util.List.of(c), QuiverTypes.INT64))).containsExactly(9L, null);
            assertThat(cast(testing, QuiverTypes.UTF8, QuiverTypes.BOOLEAN, "true", "FALSE", null)).containsExactly(true, false, null);
            assertThat(cast(testing, QuiverTypes.BOOLEAN, QuiverTypes.UTF8, true, false)).containsExactly("true", "false");
            assertThat(cast(testing, QuiverTypes.BOOLEAN, QuiverTypes.INT32, true, false)).containsExactly(1, 0);
        }
    }
}
