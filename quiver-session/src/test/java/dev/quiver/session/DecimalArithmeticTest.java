package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Decimal arithmetic keeps the digits a user expects (docs/sql.md, "Result types of decimal
 * arithmetic"): ratios of money columns and of their sums, compared with DuckDB digit by digit.
 * DuckDB's decimal division returns a DOUBLE; Quiver's exact decimal, rounded HALF_UP to the
 * decimals DuckDB printed (or DuckDB's value rounded to Quiver's scale, whichever has fewer),
 * must be the same number.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DecimalArithmeticTest {
    private MemoryCatalog catalog;
    private Connection duckdb;
    private QuerySession session;

    @BeforeAll
    void load() throws SQLException {
        Schema money = new Schema(List.of(
                QuiverTypes.field("id", QuiverTypes.INT32, false),
                QuiverTypes.field("g", QuiverTypes.INT32, false),
                QuiverTypes.field("price", QuiverTypes.decimal(15, 2), false),
                QuiverTypes.field("cost", QuiverTypes.decimal(15, 2), false),
                QuiverTypes.field("qty", QuiverTypes.INT32, false),
                QuiverTypes.field("rate", QuiverTypes.decimal(7, 4), true)));
        List<List<Object>> rows = new ArrayList<>();
        Random random = new Random(11);
        for (int i = 0; i < 400; i++) {
            rows.add(TestTables.row(i, i % 7, BigDecimal.valueOf(random.nextInt(10_000_000) + 1, 2),
                    BigDecimal.valueOf(random.nextInt(9_000_000) + 1, 2), random.nextInt(50) + 1,
                    i % 11 == 0 ? null : BigDecimal.valueOf(random.nextInt(20_000) - 10_000, 4)));
        }
        // the example: 98599.21 / 100000.00 * 100 printed 98.599200 when quotients kept 6 decimals
        rows.add(TestTables.row(400, 100, new BigDecimal("98599.21"), new BigDecimal("100000.00"), 3, new BigDecimal("0.0001")));
        catalog = new MemoryCatalog().add("money", money, rows);
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement statement = duckdb.createStatement()) {
            statement.execute("create table money (id integer, g integer, price decimal(15,2), cost decimal(15,2), qty integer, rate decimal(7,4))");
            for (List<Object> row : rows) {
                statement.execute("insert into money values (" + String.join(", ", row.stream().map(String::valueOf).toList()) + ")");
            }
        }
        session = QuerySession.builder().catalog(catalog).targetPartitions(3).batchSize(64).build();
    }

    @AfterAll
    void close() throws SQLException {
        try (Connection closedLast = duckdb) {
            assertThat(session.memoryPool().used()).isZero();
            session.close();
        }
    }

    @Test
    void quotientKeepsItsDigitsThroughAMultiplication() {
        List<List<Object>> rows = session.executeScript("select price / cost * 100 from money where g = 100").rows();
        assertThat((BigDecimal) rows.get(0).get(0)).isEqualByComparingTo("98.59921");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "select id, price / cost from money",
        "select id, price / cost * 100 from money",
        "select id, price / qty from money",
        "select id, qty / price from money",
        "select id, price / 3 from money",
        "select id, price / 2.5 from money",
        "select id, rate / price from money",
        "select id, price * rate / cost from money",
        "select g, sum(price) / sum(cost) from money group by g",
        "select g, sum(price) / sum(cost) * 100 from money group by g",
        "select g, sum(price) * 100 / sum(cost) from money group by g",
        "select g, 100.00 * sum(price) / sum(cost) from money group by g",
        "select g, sum(price - cost) / sum(price) from money group by g",
        "select g, sum(price * (1 - rate)) / sum(qty) from money group by g",
        "select g, avg(price), avg(rate), avg(qty) from money group by g",
        "select g, sum(price) / count(*) from money group by g",
        "select g, sum(price) / sum(qty) from money group by g",
        "select m.g, sum(m.price) * 100 / t.total from money m join (select sum(price) as total from money) t on true group by m.g, t.total",
        "select m.g, sum(m.price) / t.total * 100 from money m join (select sum(price) as total from money) t on true group by m.g, t.total",
    })
    void matchesDuckDbToThePrintedDigit(String sql) throws SQLException {
        List<List<Object>> expected = sortedByFirst(duckDb(sql));
        List<List<Object>> actual = sortedByFirst(session.executeScript(sql).rows());
        assertThat(actual).as(sql).hasSameSizeAs(expected);
        for (int r = 0; r < expected.size(); r++) {
            for (int c = 0; c < expected.get(r).size(); c++) {
                Object quiver = actual.get(r).get(c);
                Object duck = expected.get(r).get(c);
                assertThat(samePrintedDigits(quiver, duck)).as("%s row %d column %d: Quiver %s, DuckDB %s", sql, r, c, quiver, duck).isTrue();
            }
        }
    }

    @Test
    void aQuotientTooLargeForItsTypeIsAnErrorNotAWrongNumber() {
        // DECIMAL(38,2) / DECIMAL(38,3) is DECIMAL(38,6): 32 integer digits; 10^33 does not fit
        assertThatThrownBy(() -> session.executeScript(
                "select cast(price as decimal(38,2)) * 10000000000000000000000000000 / cast(0.001 as decimal(38,3)) from money where g = 100"))
                .isInstanceOfSatisfying(QuiverException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE));
        assertThat(session.executeScript("select count(*) from money").rows()).containsExactly(List.of(401L));
    }

    @Test
    void wideQuotientsAreExact() {
        // 128-bit dividends: DECIMAL(38,10) / DECIMAL(20,2) is DECIMAL(38,8), the scaled dividend needs 38 digits
        BigDecimal quotient = (BigDecimal) session.executeScript(
                "select cast(1234567890123456.1234567891 as decimal(38,10)) / cast(price as decimal(20,2)) from money where g = 100")
                .rows().get(0).get(0);
        BigDecimal exact = new BigDecimal("1234567890123456.1234567891").divide(new BigDecimal("98599.21"), 8, RoundingMode.HALF_UP);
        assertThat(quotient).isEqualTo(exact);
        // a product of more than 128 bits (23 + 19 unscaled digits) rounded into DECIMAL(38,6)
        BigDecimal product = (BigDecimal) session.executeScript("select cast(price / 7 as decimal(38,18)) * cast(price * 1000000000000 as decimal(38,2))"
                + " from money where g = 100").rows().get(0).get(0);
        BigDecimal seventh = new BigDecimal("98599.21").divide(BigDecimal.valueOf(7), 13, RoundingMode.HALF_UP);
        assertThat(product).isEqualTo(seventh.multiply(new BigDecimal("98599210000000000.00")).setScale(6, RoundingMode.HALF_UP));
    }

    /**
     * Quiver's exact decimal and DuckDB's value agree on every digit Quiver prints. An exact
     * DuckDB decimal must equal Quiver's rounded to the fewer decimals of the two. A DOUBLE (DuckDB's
     * decimal quotient) is within a few units in the last place of the true value; Quiver's
     * decimal, the true value rounded HALF_UP, is within half a unit of its last decimal; so the two
     * may differ by no more than the sum.
     */
    static boolean samePrintedDigits(Object quiver, Object duck) {
        if (quiver == null || duck == null) {
            return quiver == duck;
        }
        if (!(quiver instanceof BigDecimal decimal)) {
            return DuckDbOracle.normalize(quiver).equals(DuckDbOracle.normalize(duck));
        }
        if (duck instanceof Double d) {
            BigDecimal tolerance = BigDecimal.ONE.movePointLeft(decimal.scale()).divide(BigDecimal.valueOf(2))
                    .add(new BigDecimal(4 * Math.ulp(d)));
            return decimal.subtract(new BigDecimal(d)).abs().compareTo(tolerance) <= 0;
        }
        BigDecimal exact = new BigDecimal(duck.toString());
        int digits = Math.min(decimal.scale(), Math.max(0, exact.scale()));
        return decimal.setScale(digits, RoundingMode.HALF_UP).compareTo(exact.setScale(digits, RoundingMode.HALF_UP)) == 0;
    }

    private List<List<Object>> duckDb(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement statement = duckdb.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    row.add(result.getObject(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static List<List<Object>> sortedByFirst(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort((a, b) -> Long.compare(((Number) a.get(0)).longValue(), ((Number) b.get(0)).longValue()));
        return copy;
    }
}
