package dev.quiver.session;

import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Tables for window-function tests: {@code w} with NULLs and many ties in every column (fixed seed),
 * {@code w_empty}, and the small tables of {@link TestTables}.
 */
final class WindowTables {
    static final int ROWS = 600;

    private WindowTables() {}

    static MemoryCatalog catalog() {
        Schema schema = new Schema(List.of(
                QuiverTypes.field("id", QuiverTypes.INT32, false),
                QuiverTypes.field("g", QuiverTypes.INT32, true),
                QuiverTypes.field("h", QuiverTypes.UTF8, true),
                QuiverTypes.field("o", QuiverTypes.INT32, true),
                QuiverTypes.field("v", QuiverTypes.INT64, true),
                QuiverTypes.field("amount", QuiverTypes.decimal(10, 2), true),
                QuiverTypes.field("d", QuiverTypes.DATE32, true),
                QuiverTypes.field("f", QuiverTypes.FLOAT64, true)));
        Random random = new Random(11);
        List<List<Object>> rows = new ArrayList<>();
        for (int id = 1; id <= ROWS; id++) {
            rows.add(Arrays.asList(
                    id,
                    nullOr(random, 0.05, random.nextInt(6)),
                    nullOr(random, 0.05, String.valueOf((char) ('a' + random.nextInt(4)))),
                    nullOr(random, 0.1, random.nextInt(30)),
                    nullOr(random, 0.1, (long) random.nextInt(2001) - 1000),
                    nullOr(random, 0.1, BigDecimal.valueOf(random.nextInt(40000) - 10000, 2)),
                    nullOr(random, 0.1, 18_000 + random.nextInt(400)),
                    nullOr(random, 0.1, random.nextInt(80) / 8.0)));
        }
        Schema empty = new Schema(List.of(QuiverTypes.field("g", QuiverTypes.INT32, true), QuiverTypes.field("v", QuiverTypes.INT64, true)));
        MemoryCatalog catalog = TestTables.catalog();
        return catalog.add("w", schema, rows).add("w_empty", empty, List.of());
    }

    private static Object nullOr(Random random, double nullFraction, Object value) {
        return random.nextDouble() < nullFraction ? null : value;
    }
}
