package dev.quiver.session.sqllogic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** The pieces of the SQL-file runner: the grammar, the canonical text of values, the comparison rules and the update mode's rewrite. */
class SltFormatTest {
    @Test
    void parsesRecords() {
        List<SltRecord> records = SltParser.parse("f.slt", List.of(
                "# comment",
                "statement ok",
                "create view v as select 1",
                "",
                "skipif static",
                "query IT rowsort",
                "select 7 / 2, 'x'",
                "-- duckdb:",
                "select 7 // 2, 'x'",
                "----",
                "3\tx",
                "",
                "query error DIVISION_BY_ZERO by zero",
                "select 1 / 0"));
        assertThat(records).hasSize(3);
        SltRecord.Query query = (SltRecord.Query) records.get(1);
        assertThat(query.line()).isEqualTo(6);
        assertThat(query.types()).containsExactly(ColumnType.INTEGER, ColumnType.TEXT);
        assertThat(query.sql()).isEqualTo("select 7 / 2, 'x'");
        assertThat(query.duckDbText()).isEqualTo("select 7 // 2, 'x'");
        assertThat(query.expected()).contains(List.of("3\tx"));
        assertThat(query.modes()).containsExactlyInAnyOrder(RunMode.SINGLE, RunMode.ADAPTIVE);
        SltRecord.Query error = (SltRecord.Query) records.get(2);
        assertThat(error.error()).hasValueSatisfying(e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.DIVISION_BY_ZERO);
            assertThat(e.message().orElseThrow().pattern()).isEqualTo("by zero");
        });
    }

    @Test
    void rejectsMalformedRecordsWithTheirLine() {
        assertThatThrownBy(() -> SltParser.parse("f.slt", List.of("query I", "select 1")))
                .isInstanceOf(QuiverException.class).hasMessageContaining("f.slt:1");
        assertThatThrownBy(() -> SltParser.parse("f.slt", List.of("", "query I sometimes", "select 1")))
                .hasMessageContaining("f.slt:2").hasMessageContaining("rowsort");
        assertThatThrownBy(() -> SltParser.parse("f.slt", List.of("statement error NO_SUCH_CODE", "select 1")))
                .hasMessageContaining("unknown error code");
        assertThatThrownBy(() -> SltParser.parse("f.slt", List.of("query I nosort", "select 1", "-- duckdb:", "----")))
                .hasMessageContaining("come from DuckDB");
        assertThatThrownBy(() -> SltParser.parse("f.slt", List.of("select 1"))).hasMessageContaining("expected 'statement'");
    }

    @Test
    void formatsValuesCanonically() {
        assertThat(ValueFormat.format(null, ColumnType.INTEGER)).isEqualTo("NULL");
        assertThat(ValueFormat.format(new BigDecimal("1.50"), ColumnType.DECIMAL)).isEqualTo("1.50");
        assertThat(ValueFormat.format(0.1 + 0.2, ColumnType.FLOAT)).isEqualTo("0.3");
        assertThat(ValueFormat.format(-0.0, ColumnType.FLOAT)).isEqualTo("-0");
        assertThat(ValueFormat.format(Double.NaN, ColumnType.FLOAT)).isEqualTo("NaN");
        assertThat(ValueFormat.format(Double.NEGATIVE_INFINITY, ColumnType.FLOAT)).isEqualTo("-inf");
        assertThat(ValueFormat.format(1e308, ColumnType.FLOAT)).isEqualTo("1E+308");
        assertThat(ValueFormat.format(123456.789, ColumnType.FLOAT)).isEqualTo("123456.789");
        assertThat(ValueFormat.format(19783, ColumnType.DATE)).isEqualTo(ValueFormat.format(LocalDate.of(2024, 3, 1), ColumnType.DATE))
                .isEqualTo("2024-03-01");
        long micros = LocalDateTime.parse("2024-01-15T10:30:00.5").toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000 + 500_000;
        assertThat(ValueFormat.format(micros, ColumnType.TIMESTAMP)).isEqualTo("2024-01-15 10:30:00.5")
                .isEqualTo(ValueFormat.format(LocalDateTime.parse("2024-01-15T10:30:00.5"), ColumnType.TIMESTAMP));
        assertThat(ValueFormat.format("", ColumnType.TEXT)).isEqualTo("\"\"");
        assertThat(ValueFormat.format("NULL", ColumnType.TEXT)).isEqualTo("\"NULL\"");
        assertThat(ValueFormat.format("a\tb\n", ColumnType.TEXT)).isEqualTo("\"a\\tb\\n\"");
        assertThat(ValueFormat.format(" x", ColumnType.TEXT)).isEqualTo("\" x\"");
        assertThat(ValueFormat.format("日本語 x", ColumnType.TEXT)).isEqualTo("日本語 x");
    }

    @Test
    void numbersMatchToTheDigitsOfTheLessPreciseSide() {
        // DuckDB's double quotient against Quiver's DECIMAL(38,6)
        assertThat(ResultMatcher.valuesMatch("0.333333333333", ColumnType.FLOAT, "0.333333", ColumnType.DECIMAL)).isTrue();
        assertThat(ResultMatcher.valuesMatch("0.333333333333", ColumnType.FLOAT, "0.333334", ColumnType.DECIMAL)).isFalse();
        assertThat(ResultMatcher.valuesMatch("2.125", ColumnType.FLOAT, "2.13", ColumnType.DECIMAL)).isTrue();
        assertThat(ResultMatcher.valuesMatch("1.5", ColumnType.DECIMAL, "1.50", ColumnType.DECIMAL)).isTrue();
        assertThat(ResultMatcher.valuesMatch("3.75", ColumnType.DECIMAL, "3.76", ColumnType.DECIMAL)).isFalse();
        // doubles: a relative 1e-9
        assertThat(ResultMatcher.valuesMatch("1234567.89012", ColumnType.FLOAT, "1234567.89013", ColumnType.FLOAT)).isTrue();
        assertThat(ResultMatcher.valuesMatch("1234567.89", ColumnType.FLOAT, "1234567.9", ColumnType.FLOAT)).isFalse();
        assertThat(ResultMatcher.valuesMatch("2", ColumnType.INTEGER, "3", ColumnType.INTEGER)).isFalse();
        assertThat(ResultMatcher.valuesMatch("NaN", ColumnType.FLOAT, "0", ColumnType.FLOAT)).isFalse();
        assertThat(ResultMatcher.valuesMatch("NULL", ColumnType.INTEGER, "0", ColumnType.INTEGER)).isFalse();
        assertThat(ResultMatcher.valuesMatch("1", ColumnType.TEXT, "1.0", ColumnType.TEXT)).isFalse();
    }

    @Test
    void comparesRowsByTypeFamilyAndSortMode() {
        SltRecord.Query query = (SltRecord.Query) SltParser.parse("f.slt", List.of("query IN rowsort", "select 1", "----", "2\t0.5", "1\tNULL"))
                .get(0);
        Schema schema = new Schema(List.of(QuiverTypes.field("a", QuiverTypes.INT64, true), QuiverTypes.field("b", QuiverTypes.FLOAT64, true)));
        List<String> expected = query.expected().orElseThrow();
        assertThat(ResultMatcher.mismatch(query, expected, schema, List.of(Arrays.asList(1L, null), List.of(2L, 0.5)))).isEmpty();
        assertThat(ResultMatcher.mismatch(query, expected, schema, List.of(Arrays.asList(1L, null)))).hasValueSatisfying(why ->
                assertThat(why).contains("expected 2 rows, got 1"));
        assertThat(ResultMatcher.mismatch(query, expected, schema, List.of(Arrays.asList(1L, null), List.of(2L, 0.25)))).hasValueSatisfying(why ->
                assertThat(why).contains("row 2 column 2: expected 0.5, got 0.25"));
        Schema text = new Schema(List.of(QuiverTypes.field("a", QuiverTypes.UTF8, true), QuiverTypes.field("b", QuiverTypes.FLOAT64, true)));
        assertThat(ResultMatcher.mismatch(query, expected, text, List.of(Arrays.asList("1", null), List.of("2", 0.5)))).hasValueSatisfying(why ->
                assertThat(why).contains("column 1 (a) is T, expected I"));
    }

    /** Numbers that match within the tolerance but sort differently as text still pair up, one row to one row. */
    @Test
    void rowsortPairsRowsWhoseNumbersSortDifferentlyAsText() {
        SltRecord.Query query = (SltRecord.Query) SltParser.parse("f.slt", List.of("query N rowsort", "select 1", "----",
                "-100000000000000.00", "-7.00", "3.14")).get(0);
        Schema schema = new Schema(List.of(QuiverTypes.field("a", QuiverTypes.decimal(38, 4), true)));
        List<String> expected = query.expected().orElseThrow();
        assertThat(ResultMatcher.mismatch(query, expected, schema, List.of(List.of(new BigDecimal("-99999999999999.9999")),
                List.of(new BigDecimal("-7.0000")), List.of(new BigDecimal("3.1416"))))).isEmpty();
        assertThat(ResultMatcher.mismatch(query, expected, schema, List.of(List.of(new BigDecimal("-99999999999999.9999")),
                List.of(new BigDecimal("-7.0000")), List.of(new BigDecimal("3.1516"))))).isPresent();
        assertThat(ResultMatcher.mismatch(query, expected, schema, List.of(List.of(new BigDecimal("-7.0000")),
                List.of(new BigDecimal("-7.0000")), List.of(new BigDecimal("3.1416"))))).isPresent();
    }

    @Test
    void updateModeRewritesOnlyTheResultsOfQueries() {
        List<String> lines = List.of("# keep me", "query T nosort", "select 1, 'b'", "", "query error DIVISION_BY_ZERO", "select 1/0", "",
                "query I rowsort", "select k", "----", "old", "", "# tail");
        List<SltRecord> records = SltParser.parse("f.slt", lines);
        SltRecord.Query first = (SltRecord.Query) records.get(0);
        SltRecord.Query last = (SltRecord.Query) records.get(2);
        List<String> rewritten = SltRewriter.rewrite(lines, Map.of(
                first, new DuckDbDatabase.Result(List.of(ColumnType.INTEGER, ColumnType.TEXT), List.of("1\tb")),
                last, new DuckDbDatabase.Result(List.of(ColumnType.INTEGER), List.of("3", "1", "2"))));
        assertThat(rewritten).containsExactly("# keep me", "query IT nosort", "select 1, 'b'", "----", "1\tb", "", "query error DIVISION_BY_ZERO",
                "select 1/0", "", "query I rowsort", "select k", "----", "1", "2", "3", "", "# tail");
    }
}
