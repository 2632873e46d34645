package dev.quiver.session;

import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * {@link TestTables} plus {@code nums}: 400 rows in 8 groups {@code g} (one a NULL group, group 6
 * holding a single row) with NULLs in every column, integers, doubles, decimals, dates, strings
 * and booleans, and {@code big}: values near 10^9 whose spread is small, which a naive variance
 * (sum of squares minus squared sum) would lose.
 */
final class AggregateTables {
    static final int NUMS_ROWS = 400;

    private AggregateTables() {}

    static MemoryCatalog catalog() {
        Schema nums = new Schema(List.of(
                QuiverTypes.field("id", QuiverTypes.INT32, false),
                QuiverTypes.field("g", QuiverTypes.INT32, true),
                QuiverTypes.field("x", QuiverTypes.INT32, true),
                QuiverTypes.field("y", QuiverTypes.INT64, true),
                QuiverTypes.field("f", QuiverTypes.FLOAT64, true),
                QuiverTypes.field("m", QuiverTypes.decimal(15, 2), true),
                QuiverTypes.field("big", QuiverTypes.FLOAT64, false),
                QuiverTypes.field("s", QuiverTypes.UTF8, true),
                QuiverTypes.field("dt", QuiverTypes.DATE32, true),
                QuiverTypes.field("b", QuiverTypes.BOOLEAN, true)));
        String[] words = {"ash", "birch", "cedar", "elm", "fir", "hazel", "oak", "pine", "yew", "Ärger", "zürich"};
        Random random = new Random(20261201);
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < NUMS_ROWS; i++) {
            Integer g = i == 0 ? Integer.valueOf(6) : i % 29 == 0 ? null : Integer.valueOf(i % 6 + (i % 7 == 0 ? 7 : 0));
            rows.add(Arrays.asList(
                    i,
                    g,
                    random.nextInt(10) == 0 ? null : random.nextInt(200) - 50,
                    random.nextInt(10) == 0 ? null : random.nextLong() >> 20,
                    random.nextInt(10) == 0 ? null : random.nextGaussian() * 1000,
                    random.nextInt(10) == 0 ? null : BigDecimal.valueOf(random.nextInt(2_000_000) - 500_000, 2),
                    1e9 + (i % 97) * 0.5,
                    random.nextInt(8) == 0 ? null : words[random.nextInt(words.length)],
                    random.nextInt(8) == 0 ? null : (int) LocalDate.of(2020, 1, 1).toEpochDay() + random.nextInt(2000),
                    random.nextInt(5) == 0 ? null : random.nextBoolean()));
        }
        return TestTables.catalog().add("nums", nums, rows);
    }
}
