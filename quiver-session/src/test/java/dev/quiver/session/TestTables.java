package dev.quiver.session;

import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/** A small catalog with NULLs, duplicates and an empty table, for SQL tests. */
public final class TestTables {
    private TestTables() {}

    public static MemoryCatalog catalog() {
        Schema t1 = new Schema(List.of(
                QuiverTypes.field("id", QuiverTypes.INT32, false),
                QuiverTypes.field("k", QuiverTypes.INT64, true),
                QuiverTypes.field("name", QuiverTypes.UTF8, true),
                QuiverTypes.field("amount", QuiverTypes.decimal(10, 2), true),
                QuiverTypes.field("d", QuiverTypes.DATE32, true),
                QuiverTypes.field("flag", QuiverTypes.BOOLEAN, true)));
        Schema t2 = new Schema(List.of(
                QuiverTypes.field("k", QuiverTypes.INT64, true),
                QuiverTypes.field("v", QuiverTypes.UTF8, true),
                QuiverTypes.field("qty", QuiverTypes.INT32, true)));
        Schema empty = new Schema(List.of(
                QuiverTypes.field("k", QuiverTypes.INT64, true),
                QuiverTypes.field("x", QuiverTypes.INT32, true)));
        return new MemoryCatalog()
                .add("t1", t1, List.of(
                        row(1, 10L, "apple", dec("1.50"), day("2024-01-15"), true),
                        row(2, 20L, "banana", dec("2.25"), day("2024-02-29"), false),
                        row(3, null, "cherry", null, day("2023-12-31"), null),
                        row(4, 10L, null, dec("-3.75"), null, true),
                        row(5, 30L, "apple", dec("100.00"), day("2024-03-01"), false),
                        row(6, 40L, "Date", dec("0.01"), day("2024-01-01"), null),
                        row(7, null, null, null, null, null),
                        row(8, 20L, "elder_berry", dec("7.10"), day("2022-06-30"), true),
                        row(9, 50L, "fig%", dec("9.99"), day("2024-12-31"), false),
                        row(10, 10L, "grape", dec("1.50"), day("2024-01-15"), true)))
                .add("t2", t2, List.of(
                        row(10L, "ten", 1),
                        row(10L, "TEN", 2),
                        row(20L, "twenty", null),
                        row(null, "nothing", 4),
                        row(60L, "sixty", 5),
                        row(null, null, null),
                        row(30L, "thirty", 7)))
                .add("empty_t", empty, List.of());
    }

    public static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    private static BigDecimal dec(String text) {
        return new BigDecimal(text);
    }

    private static Integer day(String text) {
        return (int) LocalDate.parse(text).toEpochDay();
    }
}
