package dev.quiver.engine.operator.aggregate;

import static dev.quiver.engine.operator.aggregate.AggregateFunction.MAX;
import static dev.quiver.engine.operator.aggregate.AggregateFunction.MIN;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.agg;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.col;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.single;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.function.Function;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MIN and MAX without GROUP BY, whose fast paths read the Arrow buffers in place (columns without
 * NULLs) and fall back to the grouped loops (columns with NULLs), against the extremes computed
 * here in Java over the same rows, across many small batches.
 */
class UngroupedMinMaxTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("i", QuiverTypes.INT32, false),
            QuiverTypes.field("l", QuiverTypes.INT64, false),
            QuiverTypes.field("dt", QuiverTypes.DATE32, false),
            QuiverTypes.field("m", QuiverTypes.decimal(15, 2), false),
            QuiverTypes.field("w", QuiverTypes.decimal(38, 4), false),
            QuiverTypes.field("s", QuiverTypes.UTF8, false),
            QuiverTypes.field("ni", QuiverTypes.INT32, true),
            QuiverTypes.field("ns", QuiverTypes.UTF8, true)));

    /** Strings that differ late, share 8-byte prefixes, are prefixes of each other, are empty or multi-byte. */
    private static final List<String> WORDS = List.of("", "a", "ab", "abcdefgh", "abcdefgh ", "abcdefghi", "abcdefgh\u0000",
            "furiously regular deposits", "furiously regular depositz", "Zebra", "zebra", "\u00e9t\u00e9", "\uD83D\uDE00 smile",
            "\u00ff", "~tilde", "TRUCK", "AIR", "REG AIR");

    private static List<List<Object>> rows(int count, long seed) {
        Random random = new Random(seed);
        List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < count; r++) {
            BigInteger wide = new BigInteger(100, random).subtract(BigInteger.ONE.shiftLeft(99));
            rows.add(Arrays.asList(
                    random.nextInt(),
                    random.nextLong(),
                    random.nextInt(20_000) - 5_000,
                    BigDecimal.valueOf(random.nextLong() % 100_000_000_000_000L, 2),
                    new BigDecimal(wide, 4),
                    WORDS.get(random.nextInt(WORDS.size())) + (random.nextInt(4) == 0 ? "" : Integer.toString(random.nextInt(1000))),
                    random.nextInt(5) == 0 ? null : random.nextInt(1000) - 500,
                    random.nextInt(5) == 0 ? null : WORDS.get(random.nextInt(WORDS.size()))));
        }
        return rows;
    }

    private static final Comparator<Object> NATURAL = (a, b) -> compare(a, b);

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) {
        if (a instanceof String x && b instanceof String y) {
            return Arrays.compareUnsigned(x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8));
        }
        return ((Comparable) a).compareTo(b);
    }

    private static List<Object> expected(List<List<Object>> rows) {
        List<Object> expected = new ArrayList<>();
        for (int c = 0; c < SCHEMA.getFields().size(); c++) {
            int column = c;
            Function<List<Object>, Object> value = row -> row.get(column);
            List<Object> values = rows.stream().map(value).filter(Objects::nonNull).toList();
            expected.add(values.stream().min(NATURAL).orElse(null));
            expected.add(values.stream().max(NATURAL).orElse(null));
        }
        return expected;
    }

    private static List<AggregateExpr> aggregates() {
        List<AggregateExpr> aggregates = new ArrayList<>();
        for (var field : SCHEMA.getFields()) {
            aggregates.add(agg(MIN, col(SCHEMA, field.getName()), "min_" + field.getName(), field.getType()));
            aggregates.add(agg(MAX, col(SCHEMA, field.getName()), "max_" + field.getName(), field.getType()));
        }
        return aggregates;
    }

    @ParameterizedTest(name = "batch size {0}")
    @ValueSource(ints = {1, 7, 64, 1000})
    void matchesTheExtremesOfEveryColumn(int batchSize) {
        List<List<Object>> rows = rows(3000, batchSize);
        try (TestingContext tc = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(batchSize, 2))) {
            List<List<Object>> result = tc.rows(single(new MemoryScanExec(SCHEMA, List.of(rows)), List.of(), aggregates()));
            assertThat(result).containsExactly(expected(rows));
        }
    }

    /** MIN and MAX of one string column share a pass; a MAX listed first, and a MIN without a partner, still work. */
    @Test
    void pairsMinAndMaxOfTheSameStringColumn() {
        List<List<Object>> rows = rows(2000, 3);
        List<Object> all = expected(rows);
        int s = 5 * 2;
        List<AggregateExpr> aggregates = List.of(
                agg(MAX, col(SCHEMA, "s"), "max_s", QuiverTypes.UTF8),
                agg(MIN, col(SCHEMA, "ns"), "min_ns", QuiverTypes.UTF8),
                agg(MIN, col(SCHEMA, "s"), "min_s", QuiverTypes.UTF8),
                agg(MIN, col(SCHEMA, "s"), "min_s2", QuiverTypes.UTF8),
                agg(MAX, col(SCHEMA, "ns"), "max_ns", QuiverTypes.UTF8));
        try (TestingContext tc = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(100, 2))) {
            List<List<Object>> result = tc.rows(single(new MemoryScanExec(SCHEMA, List.of(rows)), List.of(), aggregates));
            assertThat(result).containsExactly(List.of(all.get(s + 1), all.get(s + 4), all.get(s), all.get(s), all.get(s + 5)));
        }
    }

    @Test
    void compareBytesOrdersAsUnsignedUtf8() {
        try (TestingContext tc = new TestingContext()) {
            List<String> words = new ArrayList<>(WORDS);
            words.add("abcdefgh\u00e9");
            words.add("abcdefgh\u007f");
            for (String a : words) {
                for (String b : words) {
                    assertThat(Integer.signum(compareAt(tc, a, b)))
                            .as("%s vs %s", a, b)
                            .isEqualTo(Integer.signum(compare(a, b)));
                }
            }
        }
    }

    private static int compareAt(TestingContext tc, String a, String b) {
        byte[] x = a.getBytes(StandardCharsets.UTF_8);
        byte[] y = b.getBytes(StandardCharsets.UTF_8);
        try (var bufferA = tc.allocator().buffer(Math.max(1, x.length)); var bufferB = tc.allocator().buffer(Math.max(1, y.length))) {
            bufferA.setBytes(0, x);
            bufferB.setBytes(0, y);
            int order = StringMinMaxAccumulator.compareBytes(bufferA.memoryAddress(), x.length, bufferB.memoryAddress(), y.length);
            // buffers of the values' own size: prefixes of values shorter than 8 bytes are read byte by byte
            long prefixA = StringMinMaxAccumulator.prefix(bufferA.memoryAddress(), 0, x.length, x.length);
            long prefixB = StringMinMaxAccumulator.prefix(bufferB.memoryAddress(), 0, y.length, y.length);
            if (prefixA != prefixB) {
                assertThat(Integer.signum(Long.compareUnsigned(prefixA, prefixB))).as("prefixes of %s, %s", a, b).isEqualTo(Integer.signum(order));
            }
            return order;
        }
    }
}
