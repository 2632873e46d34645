package dev.quiver.session.sqllogic;

import static dev.quiver.session.TestTables.row;

import dev.quiver.engine.types.QuiverTypes;
import dev.quiver.session.MemoryCatalog;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The small tables of NULL-heavy edge values the {@code .slt} files query beside TPC-H (README.md
 * beside the files lists them): {@code edge} (integers at their limits, finite doubles incl. -0 and
 * the extremes, decimals, empty and Unicode strings, dates, timestamps, booleans; two rows all NULL),
 * {@code floats} (NaN, infinities, -0, subnormals), and {@code l}/{@code r} (composite join keys
 * with NULLs and duplicates on both sides).
 */
final class EdgeTables {
    private EdgeTables() {}

    /** The tables, added to {@code catalog}. */
    static MemoryCatalog addTo(MemoryCatalog catalog) {
        return catalog.add("edge", edgeSchema(), edgeRows()).add("floats", floatsSchema(), floatsRows())
                .add("l", joinSchema("y"), leftRows()).add("r", joinSchema("z"), rightRows());
    }

    private static Schema edgeSchema() {
        return new Schema(List.of(
                QuiverTypes.field("id", QuiverTypes.INT32, false),
                QuiverTypes.field("i", QuiverTypes.INT32, true),
                QuiverTypes.field("bi", QuiverTypes.INT64, true),
                QuiverTypes.field("d", QuiverTypes.FLOAT64, true),
                QuiverTypes.field("dec", QuiverTypes.decimal(18, 4), true),
                QuiverTypes.field("wide", QuiverTypes.decimal(38, 6), true),
                QuiverTypes.field("s", QuiverTypes.UTF8, true),
                QuiverTypes.field("dt", QuiverTypes.DATE32, true),
                QuiverTypes.field("ts", QuiverTypes.TIMESTAMP, true),
                QuiverTypes.field("b", QuiverTypes.BOOLEAN, true)));
    }

    private static List<List<Object>> edgeRows() {
        return List.of(
                row(1, 0, 0L, 0.0, dec("0.0000"), wide("0"), "", day("1970-01-01"), ts("1970-01-01T00:00:00"), false),
                row(2, 1, 1L, 1.5, dec("1.5000"), wide("1.5"), "a", day("2000-02-29"), ts("2000-02-29T12:34:56.789"), true),
                row(3, -1, -1L, -1.5, dec("-1.5000"), wide("-1.5"), "A", day("1969-12-31"), ts("1969-12-31T23:59:59.999999"), true),
                row(4, Integer.MAX_VALUE, Long.MAX_VALUE, Double.MAX_VALUE, dec("99999999999999.9999"),
                        wide("99999999999999999999999999999999.999999"), "zzz", day("9999-12-31"), ts("9999-12-31T23:59:59"), false),
                row(5, Integer.MIN_VALUE, Long.MIN_VALUE, -Double.MAX_VALUE, dec("-99999999999999.9999"),
                        wide("-99999999999999999999999999999999.999999"), " leading space", day("1900-03-01"), ts("1900-03-01T00:00:01"), true),
                row(6, null, null, null, null, null, null, null, null, null),
                row(7, 2, 10L, -0.0, dec("0.0001"), wide("0.000001"), "trailing space ", day("2024-01-01"), ts("2024-01-01T00:00:00.000001"), null),
                row(8, null, 3_000_000_000L, 1e-300, null, wide("12345678901234567890.123456"), "Straße", null, ts("2024-02-29T23:59:59.5"), false),
                row(9, 1, null, 0.1, dec("3.1416"), null, "日本語", day("2024-02-29"), null, true),
                row(10, 100, 100L, null, dec("-0.5000"), wide("-0.5"), "emoji 😀", day("2023-12-31"), ts("2023-12-31T23:59:59"), null),
                row(11, -100, -2_147_483_648L, 2.5, dec("2.5000"), wide("2.5"), "%_\\", day("2024-03-01"), ts("2024-03-01T12:00:00"), false),
                row(12, null, null, null, null, null, null, null, null, null),
                row(13, 2, 2L, 100.0, dec("100.0000"), wide("100"), "a", day("2000-02-29"), ts("2000-02-29T12:34:56.789"), true),
                row(14, 7, -7L, -1e15, dec("-7.0000"), wide("-7"), "line\nbreak", day("2001-09-09"), ts("2001-09-09T01:46:40"), false),
                row(15, 3, 9_007_199_254_740_993L, 123456.789, dec("0.3333"), wide("0.333333"), "NULL", day("1999-12-31"), ts("1999-12-31T23:59:59.999"), true),
                row(16, null, 0L, 1.0, null, wide("1"), "tab\there", day("2038-01-19"), ts("2038-01-19T03:14:08"), null));
    }

    private static Schema floatsSchema() {
        return new Schema(List.of(QuiverTypes.field("id", QuiverTypes.INT32, false), QuiverTypes.field("f", QuiverTypes.FLOAT64, true)));
    }

    private static List<List<Object>> floatsRows() {
        return List.of(row(1, 0.0), row(2, -0.0), row(3, Double.NaN), row(4, Double.POSITIVE_INFINITY), row(5, Double.NEGATIVE_INFINITY),
                row(6, null), row(7, Double.MIN_VALUE), row(8, -Double.MIN_VALUE), row(9, 1.0), row(10, Double.NaN), row(11, -2.5),
                row(12, 1e308), row(13, 0.1 + 0.2), row(14, null));
    }

    /** {@code l(a, b, y)} and {@code r(a, b, z)}: join on a, or on (a, b). */
    private static Schema joinSchema(String payload) {
        return new Schema(List.of(
                QuiverTypes.field("a", QuiverTypes.INT32, true),
                QuiverTypes.field("b", QuiverTypes.UTF8, true),
                QuiverTypes.field(payload, QuiverTypes.INT64, true)));
    }

    private static List<List<Object>> leftRows() {
        return List.of(row(1, "x", 10L), row(1, "y", 11L), row(2, "x", 20L), row(2, null, 21L), row(null, "x", 30L), row(null, null, 31L),
                row(3, "z", 40L), row(4, "x", 50L), row(4, "x", 51L), row(5, null, null));
    }

    private static List<List<Object>> rightRows() {
        return List.of(row(1, "x", 100L), row(1, "x", 101L), row(2, "y", 200L), row(2, null, 201L), row(null, "x", 300L), row(null, null, 301L),
                row(4, "x", 500L), row(6, "w", 600L), row(6, null, 601L));
    }

    private static BigDecimal dec(String text) {
        return new BigDecimal(text).setScale(4);
    }

    private static BigDecimal wide(String text) {
        return new BigDecimal(text).setScale(6);
    }

    private static Integer day(String text) {
        return (int) LocalDate.parse(text).toEpochDay();
    }

    private static Long ts(String text) {
        LocalDateTime time = LocalDateTime.parse(text);
        return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + time.getNano() / 1000;
    }
}
