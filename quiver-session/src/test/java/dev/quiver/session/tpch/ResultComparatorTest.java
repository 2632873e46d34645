package dev.quiver.session.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** The comparison rules of the TPC-H suites, so that a suite passing means what it says. */
class ResultComparatorTest {
    private static final ArrowType MONEY = QuiverTypes.decimal(15, 2);

    @Test
    void decimalIsRoundedToTheScaleTheOracleWrote() {
        assertMatch(QuiverTypes.decimal(15, 2), new BigDecimal("25.58"), "25.58");
        assertMatch(QuiverTypes.decimal(38, 4), new BigDecimal("740210.7570"), "740210.757");
        assertMatch(QuiverTypes.decimal(38, 2), new BigDecimal("380456.00"), "380456");
        assertMatch(QuiverTypes.decimal(38, 4), new BigDecimal("0.0005"), "0.001");
        assertMismatch(QuiverTypes.decimal(38, 4), new BigDecimal("0.0004"), "0.001");
        assertMismatch(QuiverTypes.decimal(38, 2), new BigDecimal("380456.50"), "380456");
        assertMismatch(MONEY, new BigDecimal("25.57"), "25.58");
        assertMatch(MONEY, new BigDecimal("25.58"), new BigDecimal("25.580"));
    }

    @Test
    void decimalLessPreciseThanTheOracleMustBeWithinOneUnit() {
        // q14: the answer file printed a double, Quiver's division is DECIMAL(38,6)
        assertMatch(QuiverTypes.decimal(38, 6), new BigDecimal("15.486546"), "15.4865458122841");
        assertMatch(QuiverTypes.decimal(38, 6), new BigDecimal("15.486545"), "15.4865458122841");
        assertMismatch(QuiverTypes.decimal(38, 6), new BigDecimal("15.486544"), "15.4865458122841");
        assertMatch(QuiverTypes.decimal(15, 2), new BigDecimal("25.58"), 25.5775);
        assertMismatch(QuiverTypes.decimal(15, 2), new BigDecimal("25.60"), 25.5775);
    }

    @Test
    void doublesAndIntegers() {
        assertMatch(QuiverTypes.FLOAT64, 1.0 + 1e-12, 1.0);
        assertMismatch(QuiverTypes.FLOAT64, 1.0 + 1e-6, "1.000000000");
        assertMismatch(QuiverTypes.FLOAT64, 1.0 + 1e-6, 1.0);
        assertMatch(QuiverTypes.FLOAT64, 25.575154611454693, "25.58");
        assertMismatch(QuiverTypes.FLOAT64, 25.574, "25.58");
        assertMatch(QuiverTypes.INT64, 14876L, "14876");
        assertMatch(QuiverTypes.INT64, 14876L, 14876L);
        assertMismatch(QuiverTypes.INT32, 3, "4");
    }

    @Test
    void datesStringsAndNulls() {
        int days = (int) LocalDate.parse("1995-03-11").toEpochDay();
        assertMatch(QuiverTypes.DATE32, days, "1995-03-11");
        assertMatch(QuiverTypes.DATE32, days, LocalDate.parse("1995-03-11"));
        assertMatch(QuiverTypes.DATE32, days, java.sql.Date.valueOf("1995-03-11"));
        assertMismatch(QuiverTypes.DATE32, days + 1, "1995-03-11");
        assertMatch(QuiverTypes.UTF8, "Customer#000000667  ", "Customer#000000667");
        assertMismatch(QuiverTypes.UTF8, "GERMANY", "FRANCE");
        assertMatch(QuiverTypes.FLOAT64, null, null);
        assertMismatch(MONEY, BigDecimal.ZERO.setScale(2), null);
        assertMismatch(MONEY, null, "0");
    }

    @Test
    void rowCountsAndOrderMatter() {
        Schema schema = new Schema(List.of(QuiverTypes.field("k", QuiverTypes.INT64, false)));
        List<List<Object>> actual = List.of(List.of(1L), List.of(2L));
        assertThat(ResultComparator.difference(schema, actual, List.of(List.of("1"), List.of("2")))).isEmpty();
        assertThat(ResultComparator.difference(schema, actual, List.of(List.of("2"), List.of("1")))).get().asString().contains("row 0");
        assertThat(ResultComparator.difference(schema, actual, List.of(List.of("1")))).get().asString().contains("expected 1 rows but got 2");
        assertThatThrownBy(() -> ResultComparator.assertMatches("q0", schema, actual, List.of(List.of("1"), List.of("3"))))
                .isInstanceOf(AssertionError.class).hasMessageContaining("q0: row 1, column k: expected 3");
    }

    @Test
    void parsesEveryAnswerFile() {
        AnswerFile q1 = AnswerFile.parse(TpchQueries.answer(1));
        assertThat(q1.ignoreOrder()).isFalse();
        assertThat(q1.rows()).hasSize(4);
        // the first row has no trailing delimiter, the others have one
        assertThat(q1.rows()).allSatisfy(row -> assertThat(row).hasSize(10));
        assertThat(q1.rows().get(0)).containsExactly("A", "F", "380456", "532348211.65", "505822441.4861", "526165934.000839",
                "25.58", "35785.71", "0.05", "14876");
        assertThat(AnswerFile.parse(TpchQueries.answer(17)).rows()).containsExactly(Arrays.asList((Object) null));
        int[] columns = {10, 8, 4, 2, 2, 1, 4, 2, 3, 8, 2, 3, 2, 1, 5, 4, 1, 6, 1, 2, 2, 3};
        for (int q : TpchQueries.NUMBERS) {
            AnswerFile answer = AnswerFile.parse(TpchQueries.answer(q));
            assertThat(answer.rows()).as("q%d", q).isNotEmpty().allSatisfy(row -> assertThat(row).hasSize(columns[q - 1]));
        }
    }

    private static void assertMatch(ArrowType type, Object actual, Object expected) {
        assertThat(ResultComparator.compareValue(type, actual, expected)).as("%s vs %s", actual, expected).isEmpty();
    }

    private static void assertMismatch(ArrowType type, Object actual, Object expected) {
        assertThat(ResultComparator.compareValue(type, actual, expected)).as("%s vs %s", actual, expected).isPresent();
    }
}
