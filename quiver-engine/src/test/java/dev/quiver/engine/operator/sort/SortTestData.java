package dev.quiver.engine.operator.sort;

import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Random rows of every sortable type, and the oracle: a Java sort of the rows. */
final class SortTestData {
    static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("i", QuiverTypes.INT32, true),
            QuiverTypes.field("l", QuiverTypes.INT64, true),
            QuiverTypes.field("d", QuiverTypes.decimal(15, 2), true),
            QuiverTypes.field("w", QuiverTypes.decimal(38, 4), true),
            QuiverTypes.field("f", QuiverTypes.FLOAT64, true),
            QuiverTypes.field("s", QuiverTypes.UTF8, true),
            QuiverTypes.field("t", QuiverTypes.DATE32, true),
            QuiverTypes.field("b", QuiverTypes.BOOLEAN, true),
            QuiverTypes.field("id", QuiverTypes.INT32, false)));
    private static final String[] WORDS = {"", "a", "ab", "abc", "b", "Z", "zeta", "élan", "über", "中文", "a longer string value"};

    private SortTestData() {}

    static List<List<Object>> rows(int count, long seed) {
        Random random = new Random(seed);
        List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < count; r++) {
            rows.add(Arrays.asList(
                    nullOr(random, random.nextInt(41) - 20),
                    nullOr(random, random.nextBoolean() ? random.nextLong() : (long) random.nextInt(30)),
                    nullOr(random, BigDecimal.valueOf(random.nextInt(2001) - 1000, 2)),
                    nullOr(random, new BigDecimal(random.nextBoolean() ? "-123456789012345678901234567890.1234" : "98765432109876543210987654321.5000")
                            .add(BigDecimal.valueOf(random.nextInt(50), 4)).multiply(BigDecimal.valueOf(random.nextInt(3) - 1))),
                    nullOr(random, random.nextInt(25) / 4.0 - 3),
                    nullOr(random, WORDS[random.nextInt(WORDS.length)]),
                    nullOr(random, 9000 + random.nextInt(20)),
                    nullOr(random, random.nextBoolean()),
                    r));
        }
        return rows;
    }

    private static Object nullOr(Random random, Object value) {
        return random.nextInt(10) == 0 ? null : value;
    }

    static SortKey key(int column, boolean ascending, boolean nullsFirst) {
        Field field = SCHEMA.getFields().get(column);
        return new SortKey(new ColumnExpr(column, field.getName(), field.getType(), true), ascending, nullsFirst);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static Comparator<List<Object>> comparator(List<SortKey> keys) {
        Comparator<List<Object>> result = (a, b) -> 0;
        for (SortKey key : keys) {
            int column = ((ColumnExpr) key.expr()).index();
            Comparator<List<Object>> one = (a, b) -> {
                Comparable x = (Comparable) a.get(column);
                Comparable y = (Comparable) b.get(column);
                if (x == null || y == null) {
                    if (x == null && y == null) {
                        return 0;
                    }
                    return (x == null) == key.nullsFirst() ? -1 : 1;
                }
                int c = x.compareTo(y);
                return key.ascending() ? c : -c;
            };
            result = result.thenComparing(one);
        }
        return result;
    }

    /** The rows sorted by the oracle. */
    static List<List<Object>> sorted(List<List<Object>> rows, List<SortKey> keys) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(comparator(keys));
        return copy;
    }

    /** Only the key columns of each row, which a correct sort determines exactly (ties may reorder the rest). */
    static List<List<Object>> keyColumns(List<List<Object>> rows, List<SortKey> keys) {
        List<List<Object>> result = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> projected = new ArrayList<>();
            for (SortKey key : keys) {
                projected.add(row.get(((ColumnExpr) key.expr()).index()));
            }
            result.add(projected);
        }
        return result;
    }

    static List<List<Object>> byId(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(row -> (Integer) row.get(8)));
        return copy;
    }
}
