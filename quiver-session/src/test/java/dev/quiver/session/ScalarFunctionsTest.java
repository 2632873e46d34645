package dev.quiver.session;

import static dev.quiver.session.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The scalar functions on columns of edge values (NULLs, '', Unicode, negative numbers, NaN and
 * the infinities), compared with DuckDB running the same expression over the same rows. Where
 * Quiver spells a function differently from DuckDB, the DuckDB spelling follows {@code ~>}.
 */
class ScalarFunctionsTest {
    private static MemoryCatalog catalog;
    private static DuckDbOracle duckdb;
    private QuerySession session;

    @BeforeAll
    static void loadOracle() throws SQLException {
        catalog = tables();
        duckdb = new DuckDbOracle(catalog);
    }

    @AfterAll
    static void closeOracle() throws SQLException {
        duckdb.close();
    }

    @BeforeEach
    void open() {
        session = QuerySession.builder().catalog(catalog).targetPartitions(3).batchSize(3).build();
    }

    @AfterEach
    void close() {
        assertThat(session.memoryPool().used()).isZero();
        session.close();
    }

    static MemoryCatalog tables() {
        Schema fx = new Schema(List.of(
                QuiverTypes.field("id", QuiverTypes.INT32, false),
                QuiverTypes.field("s", QuiverTypes.UTF8, true),
                QuiverTypes.field("t", QuiverTypes.UTF8, true),
                QuiverTypes.field("n", QuiverTypes.INT32, true),
                QuiverTypes.field("l", QuiverTypes.INT64, true),
                QuiverTypes.field("d", QuiverTypes.FLOAT64, true),
                QuiverTypes.field("m", QuiverTypes.decimal(10, 2), true),
                QuiverTypes.field("b", QuiverTypes.BOOLEAN, true)));
        Schema extremes = new Schema(List.of(
                QuiverTypes.field("n", QuiverTypes.INT32, true),
                QuiverTypes.field("l", QuiverTypes.INT64, true),
                QuiverTypes.field("s", QuiverTypes.UTF8, true),
                QuiverTypes.field("d", QuiverTypes.FLOAT64, true)));
        return new MemoryCatalog()
                .add("fx", fx, List.of(
                        row(1, "abc", "b", 0, 0L, 0.0, dec("0.00"), true),
                        row(2, "", "", 1, -1L, -0.0, dec("1.50"), false),
                        row(3, null, "x", -1, 123456789012L, 1.5, dec("-2.50"), null),
                        row(4, "Straße", null, 2, -9L, -2.5, dec("99999999.99"), true),
                        row(5, "héllo wörld", "ö", 10, null, Double.NaN, dec("-0.01"), false),
                        row(6, "  padded  ", " ", null, 42L, Double.POSITIVE_INFINITY, null, null),
                        row(7, "a,b,,c", ",", 3, 7L, Double.NEGATIVE_INFINITY, dec("2.67"), true),
                        row(8, "😀x😀", "😀", -7, -100L, null, dec("12.34"), false),
                        row(9, "ABC def-GHI ijk", "def", 5, 5L, 1e300, dec("-45.67"), true),
                        row(10, "x%y_z", "%", 100, 1000000L, 2.675, dec("100.00"), false)))
                .add("extremes", extremes, List.of(row(Integer.MIN_VALUE, Long.MIN_VALUE, "x", Double.NaN)));
    }

    private static BigDecimal dec(String text) {
        return new BigDecimal(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // strings
        "length(s)", "char_length(s)", "upper(s)", "lower(s)", "ucase(s)", "lcase(s)",
        "trim(s)", "ltrim(s)", "rtrim(s)", "trim(both t from s) ~> trim(s, t)", "trim(leading t from s) ~> ltrim(s, t)",
        "trim(trailing t from s) ~> rtrim(s, t)", "ltrim(s, t)", "rtrim(s, 'c😀')", "btrim(s, t) ~> trim(s, t)", "trim(both ' ' from s)",
        "left(s, n)", "right(s, n)", "left(s, -2)", "right(s, -1)", "lpad(s, n, '*')", "rpad(s, n, 'xy')", "lpad(s, 3, '😀é')",
        "replace(s, t, 'Z')", "replace(s, 'b', '')", "reverse(s)", "repeat(s, n)", "repeat(t, 3)",
        "strpos(s, t)", "instr(s, t)", "position(t in s)", "split_part(s, t, n)", "split_part(s, ',', 2)", "split_part(s, ',', -1)",
        "split_part(s, '', 2)", "starts_with(s, t)", "ends_with(s, t)", "contains(s, t)", "prefix(s, t)", "suffix(s, t)",
        "concat(s, t, n)", "concat(s, d, m, b)", "concat(l)", "concat_ws(t, s, n)", "concat_ws('-', s, t, m)",
        "s || t", "s || n", "m || '!'",
        "ascii(s)", "chr(abs(n) + 65)", "substring(s, n)", "substring(s, n, 2)", "substr(s, -3)", "substring(s, 2, -1)",
        "substring(s from 2 for 3)", "substring(s, -2, 5)",
        // patterns
        "s like '%b%'", "s like t", "s not like '%o%'", "s ilike 'ABC%'", "s not ilike '%É%'", "s like 'x!%%' escape '!'",
        "s ilike t", "s similar to '(abc|)'", "s similar to 'A(B|X)C%' ~> regexp_full_match(s, 'A(B|X)C.*')",
        "regexp_matches(s, 'b|ö')", "regexp_matches(s, t)", "regexp_matches(s, 'ABC', 'i')", "regexp_matches(s, '^[[:alpha:]]+$')",
        "regexp_replace(s, '[aeiou]', '#', 'g')", "regexp_replace(s, '[aeiou]', '#')", "regexp_replace(s, '(\\w)(\\w)', '\\2\\1')",
        "regexp_replace(s, 'x*', '-', 'g')", "regexp_extract(s, '([a-z]+)', 1)", "regexp_extract(s, '[A-Z]+')",
        "regexp_extract(s, '(b)(c)?', 2)",
        // math
        "abs(n)", "abs(m)", "abs(d)", "abs(l)", "sign(n)", "sign(m)", "sign(d)",
        "round(m)", "round(m, 1)", "round(d)", "round(d, 2)", "round(n, -1)", "round(m, -1)", "round(l, -2)",
        "trunc(m)", "trunc(m, 1)", "trunc(d)", "trunc(d, 1)", "trunc(n, -1)",
        "floor(m)", "floor(d)", "ceil(m)", "ceiling(d)", "floor(n) ~> cast(floor(n) as integer)", "ceil(l) ~> cast(ceil(l) as bigint)",
        "power(n, 2)", "pow(d, 2)", "power(m, 0.5)", "sqrt(abs(m))", "sqrt(d)", "cbrt(m)", "cbrt(n)", "exp(n)", "exp(d)",
        "ln(abs(m))", "ln(d)", "log(m)", "log10(n)", "log2(d)", "log(2, n)", "log(n, 100)",
        "mod(n, 3)", "mod(l, 7)", "n % 3", "mod(m, 2)", "mod(d, 2)", "l % (n + 200)",
        "greatest(n, l, 5)", "least(m, d)", "greatest(s, t)", "least(s, t, 'b')", "greatest(m, n)", "least(d, 0)",
        "sin(d)", "cos(n)", "tan(m)", "asin(n)", "acos(d)", "atan(d)", "atan2(d, n)", "cot(n)", "pi() * n", "degrees(d)", "radians(n)",
        // conditional
        "coalesce(s, t, 'none')", "coalesce(n, l)", "ifnull(n, 0)", "nvl(s, t) ~> coalesce(s, t)", "nullif(n, 1)", "nullif(s, '')",
        "nullif(m, n)", "if(b, s, t)", "iff(n > 2, n, l) ~> if(n > 2, n, l)", "case when n > 2 then s else t end",
        // casts
        "cast(n as varchar)", "cast(d as varchar)", "cast(m as varchar)", "cast(b as varchar)", "cast(l as varchar)",
        "cast(m as integer)", "cast(m as double)", "cast(n as decimal(12, 2))", "cast(b as integer)", "cast(n as boolean)",
        "try_cast(m as decimal(4, 1))", "try_cast(s as integer)", "try_cast(s as double)",
        "try_cast(t as boolean)", "try_cast(d as integer)", "try_cast(d as decimal(20, 2))", "try_cast(m as decimal(3, 1))",
        "n::varchar", "cast(cast(n as varchar) as integer)", "cast(l as double)", "try_cast(d as decimal(38, 2))",
        "try_cast(cast(d as varchar) as double)",
    })
    void matchesDuckDb(String expressions) throws SQLException {
        String[] forms = expressions.split(" ~> ", 2);
        String quiver = "select id, " + forms[0] + " from fx";
        String duck = "select id, " + (forms.length > 1 ? forms[1] : forms[0]) + " from fx";
        List<List<Object>> expected = sorted(duckdb.query(duck));
        List<List<Object>> actual = sorted(DuckDbOracle.normalize(session.executeScript(quiver).rows()));
        assertThat(actual).as(quiver).isEqualTo(expected);
    }

    /** Values each function rejects fail in DuckDB too; Quiver names the error. */
    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "abs(n); NUMERIC_VALUE_OUT_OF_RANGE",
        "abs(l); NUMERIC_VALUE_OUT_OF_RANGE",
        "round(n, -1); NUMERIC_VALUE_OUT_OF_RANGE",
        "cast(l as integer); NUMERIC_VALUE_OUT_OF_RANGE",
        "cast(s as integer); INVALID_CAST",
        "cast(d as integer); INVALID_CAST",
        "chr(n); INVALID_ARGUMENT",
        "lpad(s, 5, ''); INVALID_ARGUMENT",
        "regexp_matches(s, '('); INVALID_ARGUMENT",
        "regexp_matches(s, 'x', 'q'); INVALID_ARGUMENT",
        "mod(n, 0); DIVISION_BY_ZERO",
        "n % 0; DIVISION_BY_ZERO",
    })
    void rejectsWhatDuckDbRejects(String expression, ErrorCode code) {
        String sql = "select " + expression + " from extremes";
        assertThatThrownBy(() -> duckdb.query(sql)).as("DuckDB: " + sql).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> session.executeScript(sql)).as(sql)
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(code));
        assertThat(session.executeScript("select count(*) from extremes").rows()).containsExactly(List.of(1L));
    }

    /** A regular expression that does not compile is an error at its place in the SQL text. */
    @Test
    void badRegularExpressionNamesItsPosition() {
        assertThatThrownBy(() -> session.executeScript("select id,\n  regexp_replace(s, 'a(b', 'x') from fx"))
                .isInstanceOfSatisfying(QuiverException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                    assertThat(e.position()).hasValueSatisfying(p -> {
                        assertThat(p.line()).isEqualTo(2);
                        assertThat(p.column()).isEqualTo(21);
                    });
                    assertThat(e.getMessage()).contains("'a(b'");
                });
        assertThat(session.executeScript("select count(*) from fx").rows()).hasSize(1);
    }

    /**
     * TRY_CAST gives NULL where CAST fails; CAST's error names the value and where the CAST is
     * written (a column's value, when the query runs; a constant's, folded or not), and the session
     * goes on.
     */
    @Test
    void tryCastIsNullWhereCastFails() throws SQLException {
        assertCastFails("select id,\n  cast(s as integer) from fx where id = 1", new QuiverException.SqlPosition(2, 3));
        assertCastFails("select 1,\n    cast('x' as integer)", new QuiverException.SqlPosition(2, 5));
        assertCastFails("select id, cast(s || 'x' as date) from fx where id = 1", new QuiverException.SqlPosition(1, 12));
        assertCastFails("select id, s::integer + 1 from fx where id = 1", new QuiverException.SqlPosition(1, 12));
        assertCastFails("select id,\n   (s || '')::integer from fx where id = 1", new QuiverException.SqlPosition(2, 4));
        String sql = "select try_cast(s as integer), try_cast('12' as integer), try_cast('x' as integer), '12'::integer + 1 from fx where id = 1";
        assertThat(DuckDbOracle.normalize(session.executeScript(sql).rows())).isEqualTo(duckdb.query(sql));
    }

    private void assertCastFails(String sql, QuiverException.SqlPosition position) {
        assertThatThrownBy(() -> session.executeScript(sql)).as(sql)
                .isInstanceOfSatisfying(QuiverException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CAST);
                    assertThat(e.position()).as(e.getMessage()).contains(position);
                    assertThat(e.getMessage()).contains("Cannot cast").contains(position.toString());
                });
        assertThat(session.executeScript("select count(*) from fx").rows()).hasSize(1);
    }

    /**
     * initcap and SIMILAR TO with SQL wildcards are not in DuckDB (or mean something else there):
     * the expected values are PostgreSQL's, from its documentation.
     */
    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "initcap('hi THOMAS'); Hi Thomas",
        "initcap('hello wORLD-foo bar_baz 1abc'); Hello World-Foo Bar_Baz 1abc",
        "cast('abc' similar to 'abc' as varchar); true",
        "cast('abc' similar to 'a' as varchar); false",
        "cast('abc' similar to '%(b|d)%' as varchar); true",
        "cast('abc' similar to '(b|c)%' as varchar); false",
        "cast('a.c' similar to 'a.c' as varchar); true",
        "cast('abc' similar to 'a.c' as varchar); false",
        "cast('a_c' similar to 'a#_c' escape '#' as varchar); true",
        "cast('abc' similar to 'a#_c' escape '#' as varchar); false",
    })
    void matchesPostgreSql(String expression, String expected) {
        assertThat(session.executeScript("select " + expression + " from fx where id = 1").rows()).containsExactly(List.of(expected));
    }

    /**
     * upper and lower of every character below U+2C00 and of the fullwidth forms agree with
     * DuckDB. (Later blocks gained letters in Unicode 14 and after, which JDK 17 does not know;
     * case mapping follows the JVM's Unicode version.)
     */
    @Test
    void caseMappingOfEveryCharacterMatchesDuckDb() throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        for (int c = 1; c < 0x10000; c++) {
            if (c < 0x2C00 || c >= 0xFF00 && c < 0xFFF0) {
                rows.add(row(c, new String(Character.toChars(c))));
            }
        }
        MemoryCatalog characters = new MemoryCatalog().add("chars", new Schema(List.of(
                QuiverTypes.field("id", QuiverTypes.INT32, false), QuiverTypes.field("c", QuiverTypes.UTF8, false))), rows);
        String sql = "select id, upper(c), lower(c) from chars";
        try (DuckDbOracle oracle = new DuckDbOracle(characters);
                QuerySession characterSession = QuerySession.builder().catalog(characters).build()) {
            List<List<Object>> expected = sorted(oracle.query(sql));
            List<List<Object>> actual = sorted(DuckDbOracle.normalize(characterSession.executeScript(sql).rows()));
            List<String> differences = new ArrayList<>();
            for (int i = 0; i < expected.size(); i++) {
                if (!expected.get(i).equals(actual.get(i))) {
                    differences.add(expected.get(i) + " vs " + actual.get(i));
                }
            }
            assertThat(differences).isEmpty();
        }
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(r -> ((Number) r.get(0)).longValue()));
        return copy;
    }
}
