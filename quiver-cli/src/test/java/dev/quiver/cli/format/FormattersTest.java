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
