package dev.quiver.cli.format;

import static dev.quiver.engine.types.QuiverTypes.BOOLEAN;
import static dev.quiver.engine.types.QuiverTypes.DATE32;
import static dev.quiver.engine.types.QuiverTypes.FLOAT64;
import static dev.quiver.engine.types.QuiverTypes.INT64;
import static dev.quiver.engine.types.QuiverTypes.TIMESTAMP;
import static dev.quiver.engine.types.QuiverTypes.UTF8;
import static dev.quiver.engine.types.QuiverTypes.decimal;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;

class FormattersTest {
    private static final int DAYS_1998_09_02 = (int) LocalDate.of(1998, 9, 2).toEpochDay();

    private static final ResultTable MIXED = new ResultTable(
            List.of("id", "name", "price", "ship_date", "flag", "ratio"),
            List.of(INT64, UTF8, decimal(15, 2), DATE32, BOOLEAN, FLOAT64),
            List.of(
                    row(1L, "plain", new BigDecimal("12.50"), DAYS_1998_09_02, true, 0.5),
                    row(22L, "a, \"quoted\"\nvalue", new BigDecimal("-0.07"), 0, false, 1e20),
                    row(null, null, null, null, null, null),
                    row(3L, "", new BigDecimal("1E+3"), -1, true, 2.0)));

    @Test
    void csvQuotesNullsDecimalsAndDates() {
        assertThat(render(OutputFormat.CSV, MIXED)).isEqualTo("""
                id,name,price,ship_date,flag,ratio
                1,plain,12.50,1998-09-02,true,0.5
                22,"a, ""quoted""
                value",-0.07,1970-01-01,false,1.0E20
                ,,,,,
                3,"",1000.00,1969-12-31,true,2.0
                """);
    }

    @Test
    void csvQuotesHeaderNamesThatNeedIt() {
        ResultTable table = new ResultTable(List.of("a,b", "c\"d"), List.of(INT64, INT64), List.of(row(1L, 2L)));
        assertThat(render(OutputFormat.CSV, table)).isEqualTo("\"a,b\",\"c\"\"d\"\n1,2\n");
    }

    @Test
    void decimalKeepsItsColumnScaleInPlainNotation() {
        ArrowType type = decimal(38, 6);
        assertThat(ValueFormatter.format(new BigDecimal("1E+10"), type)).isEqualTo("10000000000.000000");
        assertThat(ValueFormatter.format(new BigDecimal("0.000001"), type)).isEqualTo("0.000001");
        assertThat(ValueFormatter.format(new BigDecimal("-123456789012345678901234567890.123456"), type))
                .isEqualTo("-123456789012345678901234567890.123456");
    }

    @Test
    void timestampsAndDoubles() {
        long micros = LocalDate.of(2024, 2, 29).toEpochDay() * 86_400_000_000L + 3_723_000_450L;
        assertThat(ValueFormatter.format(micros, TIMESTAMP)).isEqualTo("2024-02-29 01:02:03.00045");
        assertThat(ValueFormatter.format(-1L, TIMESTAMP)).isEqualTo("1969-12-31 23:59:59.999999");
        assertThat(ValueFormatter.format(0.1 + 0.2, FLOAT64)).isEqualTo("0.30000000000000004");
        assertThat(ValueFormatter.format(123456789.0, FLOAT64)).isEqualTo("123456789.0");
        assertThat(ValueFormatter.format(Double.NaN, FLOAT64)).isEqualTo("NaN");
    }

    @Test
    void tableAlignsColumnsAndPrintsCountAndTime() {
        ResultTable table = new ResultTable(
                List.of("name", "total"),
                List.of(UTF8, decimal(10, 2)),
                List.of(row("alpha", new BigDecimal("12.50")), row("b", null), row("gamma-long", new BigDecimal("-3.00"))));
        assertThat(render(OutputFormat.TABLE, table, Duration.ofMillis(12))).isEqualTo("""
                 name       | total
                ------------+-------
                 alpha      | 12.50
                 b          |  NULL
                 gamma-long | -3.00
                (3 rows, 0.012 s)
                """);
    }

    @Test
    void tableSpreadsMultiLineValuesOverLines() {
        ResultTable table = new ResultTable(List.of("plan"), List.of(UTF8),
                List.of(row("ProjectionExec: a\n  FilterExec: a > 1\n")));
        assertThat(render(OutputFormat.TABLE, table, Duration.ofMillis(1500))).isEqualTo("""
                 plan
                ---------------------
                 ProjectionExec: a
                   FilterExec: a > 1
                (1 row, 1.500 s)
                """);
    }

    @Test
    void tableOfStatementWithoutColumnsSaysOk() {
        ResultTable table = new ResultTable(List.of(), List.of(), List.of());
        assertThat(render(OutputFormat.TABLE, table, Duration.ofMillis(3))).isEqualTo("OK (0.003 s)\n");
    }

    @Test
    void tableWithNoRows() {
        ResultTable table = new ResultTable(List.of("x"), List.of(INT64), List.of());
        assertThat(render(OutputFormat.TABLE, table, Duration.ZERO)).isEqualTo("""
                 x
                ---
                (0 rows, 0.000 s)
                """);
    }

    @Test
    void jsonLinesTypesValues() {
        assertThat(render(OutputFormat.JSON, MIXED)).isEqualTo("""
                {"id":1,"name":"plain","price":12.50,"ship_date":"1998-09-02","flag":true,"ratio":0.5}
                {"id":22,"name":"a, \\"quoted\\"\\nvalue","price":-0.07,"ship_date":"1970-01-01","flag":false,"ratio":1.0E20}
                {"id":null,"name":null,"price":null,"ship_date":null,"flag":null,"ratio":null}
                {"id":3,"name":"","price":1000.00,"ship_date":"1969-12-31","flag":true,"ratio":2.0}
                """);
    }

    @Test
    void jsonWritesNonFiniteDoublesAsStrings() {
        ResultTable table = new ResultTable(List.of("x"), List.of(FLOAT64),
                List.of(row(Double.POSITIVE_INFINITY), row(Double.NaN)));
        assertThat(render(OutputFormat.JSON, table)).isEqualTo("{\"x\":\"Infinity\"}\n{\"x\":\"NaN\"}\n");
    }

    @Test
    void tableShowsTheFirstAndLastRowsOfALongResult() {
        List<List<Object>> rows = new java.util.ArrayList<>();
        for (long i = 1; i <= 1000; i++) {
            rows.add(row(i));
        }
        ResultTable table = new ResultTable(List.of("n"), List.of(INT64), rows);
        StringWriter text = new StringWriter();
        new TableFormatter(new Display(5, 0, false)).write(table, Duration.ZERO, new PrintWriter(text));
        // the header is left-aligned, numbers right-aligned
        assertThat(text.toString()).isEqualTo("""
                 n
                ------
                    1
                    2
                    3
                 ...
                  999
                 1000
                (1000 rows (5 shown))
                """);
    }

    @Test
    void rowSampleKeepsHeadAndTailWhateverTheCount() {
        for (int count : new int[] {0, 1, 39, 40, 41, 45, 60, 61, 1000}) {
            RowSample sample = new RowSample(40);
            for (long i = 0; i < count; i++) {
                sample.add(row(i));
            }
            List<Object> expected = new java.util.ArrayList<>();
            for (long i = 0; i < count; i++) {
                if (count <= 40 || i < 20 || i >= count - 20) {
                    expected.add(i);
                }
            }
            List<Object> shown = new java.util.ArrayList<>();
            sample.head().forEach(r -> shown.add(r.get(0)));
            sample.tail().forEach(r -> shown.add(r.get(0)));
            assertThat(shown).as("%d rows", count).isEqualTo(expected);
            assertThat(sample.elided()).isEqualTo(count > 40);
            assertThat(sample.count()).isEqualTo(count);
        }
    }

    @Test
    void tableWiderThanTheTerminalElidesMiddleColumns() {
        List<String> names = List.of("first", "second_column", "third_column", "fourth_column", "last");
        ResultTable table = new ResultTable(names, List.of(INT64, UTF8, UTF8, UTF8, INT64),
                List.of(row(1L, "aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc", 5L)));
        StringWriter text = new StringWriter();
        new TableFormatter(new Display(40, 40, false)).write(table, Duration.ZERO, new PrintWriter(text));
        assertThat(text.toString()).isEqualTo("""
                 first | second_column | ... | last
                -------+---------------+-----+------
                     1 | aaaaaaaaaaaa  | ... |    5
                (1 row, 5 columns (3 shown))
                """);
        assertThat(text.toString().lines().mapToInt(String::length).max().orElseThrow()).isLessThanOrEqualTo(40);
    }

    @Test
    void tableCutsValuesWiderThanTheirShareBeforeElidingColumns() {
        String longText = "x".repeat(100);
        ResultTable table = new ResultTable(List.of("id", "comment"), List.of(INT64, UTF8), List.of(row(7L, longText)));
        StringWriter text = new StringWriter();
        new TableFormatter(new Display(40, 60, false)).write(table, Duration.ZERO, new PrintWriter(text));
        assertThat(text.toString()).isEqualTo("""
                 id | comment
                ----+----------------------
                  7 | xxxxxxxxxxxxxxxxx...
                (1 row)
                """);
    }

    @Test
    void aSingleColumnIsNeverCutOrElided() {
        String plan = "ProjectionExec: " + "a, ".repeat(40);
        ResultTable table = new ResultTable(List.of("plan"), List.of(UTF8), List.of(row(plan)));
        StringWriter text = new StringWriter();
        new TableFormatter(new Display(40, 30, false)).write(table, Duration.ZERO, new PrintWriter(text));
        assertThat(text.toString()).contains(plan.stripTrailing());
    }

    @Test
    void markdownEscapesPipesAndAlignsNumbersRight() {
        ResultTable table = new ResultTable(List.of("name", "total"), List.of(UTF8, decimal(10, 2)),
                List.of(row("a|b", new BigDecimal("1.50")), row("two\nlines", null)));
        assertThat(render(OutputFormat.MARKDOWN, table)).isEqualTo("""
                | name | total |
                |---|---:|
                | a\\|b | 1.50 |
                | two<br>lines | NULL |
                """);
    }

    @Test
    void lineModePrintsOneColumnALine() {
        ResultTable table = new ResultTable(List.of("id", "long_name"), List.of(INT64, UTF8),
                List.of(row(1L, "x"), row(2L, null)));
        assertThat(render(OutputFormat.LINE, table)).isEqualTo("""
                       id = 1
                long_name = x

                       id = 2
                long_name = NULL
                """);
    }

    private static String render(OutputFormat format, ResultTable table) {
        return render(format, table, Duration.ofMillis(5));
    }

    private static String render(OutputFormat format, ResultTable table, Duration elapsed) {
        StringWriter text = new StringWriter();
        format.formatter().write(table, elapsed, new PrintWriter(text));
        return text.toString();
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }
}
