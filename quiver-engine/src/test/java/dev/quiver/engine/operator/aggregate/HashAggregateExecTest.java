package dev.quiver.engine.operator.aggregate;

import static dev.quiver.engine.operator.aggregate.AggregateFunction.AVG;
import static dev.quiver.engine.operator.aggregate.AggregateFunction.COUNT;
import static dev.quiver.engine.operator.aggregate.AggregateFunction.MAX;
import static dev.quiver.engine.operator.aggregate.AggregateFunction.MIN;
import static dev.quiver.engine.operator.aggregate.AggregateFunction.SUM;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.agg;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.allRows;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.col;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.countStar;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.distinct;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.finalOver;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.partial;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.single;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.ResourcesExhaustedException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.PartitionRunner;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class HashAggregateExecTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("k", QuiverTypes.UTF8, true),
            QuiverTypes.field("i", QuiverTypes.INT32, true),
            QuiverTypes.field("l", QuiverTypes.INT64, true),
            QuiverTypes.field("d", QuiverTypes.FLOAT64, true),
            QuiverTypes.field("m", QuiverTypes.decimal(15, 2), true),
            QuiverTypes.field("s", QuiverTypes.UTF8, true),
            QuiverTypes.field("dt", QuiverTypes.DATE32, true),
            QuiverTypes.field("b", QuiverTypes.BOOLEAN, true)));

    private static final List<List<Object>> ROWS = List.of(
            row("a", 10, 100L, 1.5, "1.25", "x", 10, true),
            row("a", 20, null, 2.5, "2.50", "y", 20, false),
            row("b", null, 300L, null, null, null, null, null),
            row(null, 5, 50L, 0.5, "0.05", "z", 5, true),
            row(null, null, null, null, null, null, null, null),
            row("b", 7, 70L, 7.0, "7.77", "w", 7, false),
            row("c", null, null, null, null, null, null, null));

    private static List<Object> row(String k, Integer i, Long l, Double d, String m, String s, Integer dt, Boolean b) {
        return Arrays.asList(k, i, l, d, m == null ? null : new BigDecimal(m), s, dt, b);
    }

    private static List<AggregateExpr> everyFunction() {
        return List.of(
                countStar(),
                agg(COUNT, col(SCHEMA, "i"), "count_i", QuiverTypes.INT64),
                agg(SUM, col(SCHEMA, "i"), "sum_i", QuiverTypes.INT64),
                agg(SUM, col(SCHEMA, "l"), "sum_l", QuiverTypes.INT64),
                agg(SUM, col(SCHEMA, "d"), "sum_d", QuiverTypes.FLOAT64),
                agg(SUM, col(SCHEMA, "m"), "sum_m", QuiverTypes.decimal(38, 2)),
                agg(AVG, col(SCHEMA, "m"), "avg_m", QuiverTypes.decimal(15, 2)),
                agg(AVG, col(SCHEMA, "d"), "avg_d", QuiverTypes.FLOAT64),
                agg(AVG, col(SCHEMA, "i"), "avg_i", QuiverTypes.FLOAT64),
                agg(MIN, col(SCHEMA, "s"), "min_s", QuiverTypes.UTF8),
                agg(MAX, col(SCHEMA, "s"), "max_s", QuiverTypes.UTF8),
                agg(MIN, col(SCHEMA, "dt"), "min_dt", QuiverTypes.DATE32),
                agg(MAX, col(SCHEMA, "dt"), "max_dt", QuiverTypes.DATE32),
                agg(MIN, col(SCHEMA, "b"), "min_b", QuiverTypes.BOOLEAN),
                agg(MAX, col(SCHEMA, "b"), "max_b", QuiverTypes.BOOLEAN),
                agg(MIN, col(SCHEMA, "m"), "min_m", QuiverTypes.decimal(15, 2)),
                agg(MAX, col(SCHEMA, "i"), "max_i", QuiverTypes.INT32),
                agg(MIN, col(SCHEMA, "l"), "min_l", QuiverTypes.INT64),
                agg(MAX, col(SCHEMA, "d"), "max_d", QuiverTypes.FLOAT64));
    }

    /** Hand-computed: group a, b (one all-NULL row), NULL key, c (only NULL values). */
    private static final List<List<Object>> EXPECTED = List.of(
            Arrays.asList("a", 2L, 2L, 30L, 100L, 4.0, new BigDecimal("3.75"), new BigDecimal("1.88"), 2.0, 15.0,
                    "x", "y", 10, 20, false, true, new BigDecimal("1.25"), 20, 100L, 2.5),
            Arrays.asList("b", 2L, 1L, 7L, 370L, 7.0, new BigDecimal("7.77"), new BigDecimal("7.77"), 7.0, 7.0,
                    "w", "w", 7, 7, false, false, new BigDecimal("7.77"), 7, 70L, 7.0),
            Arrays.asList(null, 2L, 1L, 5L, 50L, 0.5, new BigDecimal("0.05"), new BigDecimal("0.05"), 0.5, 5.0,
                    "z", "z", 5, 5, true, true, new BigDecimal("0.05"), 5, 50L, 0.5),
            Arrays.asList("c", 1L, 0L, null, null, null, null, null, null, null,
                    null, null, null, null, null, null, null, null, null, null));

    @Test
    void singleComputesEveryFunctionPerGroupWithNullKeysAndAllNullGroups() {
        try (TestingContext tc = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(2, 2))) {
            HashAggregateExec plan = single(new MemoryScanExec(SCHEMA, List.of(ROWS)), List.of("k"), everyFunction());
            assertThat(tc.rows(plan)).containsExactlyInAnyOrderElementsOf(EXPECTED);
            assertThat(plan.metrics().partition(0).peakMemoryBytes()).isPositive();
            assertThat(plan.metrics().partition(0).outputRows()).isEqualTo(4);
            assertThat(plan.metrics().partition(0).elapsedComputeNanos()).isPositive();
        }
    }

    @Test
    void partialThenFinalEqualsSingle() {
        try (TestingContext tc = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(2, 2))) {
            HashAggregateExec partial = partial(MemoryScanExec.split(SCHEMA, ROWS, 3), List.of("k"), everyFunction());
            List<List<Object>> states = allRows(partial, tc.context());
            tc.reset();
            assertThat(states.size()).isGreaterThan(4);
            assertThat(tc.rows(finalOver(partial, states))).containsExactlyInAnyOrderElementsOf(EXPECTED);
        }
    }

    @Test
    void partialEmitsTheDocumentedStateColumns() {
        try (TestingContext tc = new TestingContext()) {
            List<AggregateExpr> aggregates = List.of(agg(AVG, col(SCHEMA, "m"), "avg_m", QuiverTypes.decimal(15, 2)),
                    agg(SUM, col(SCHEMA, "i"), "sum_i", QuiverTypes.INT64));
            HashAggregateExec partial = partial(new MemoryScanExec(SCHEMA, List.of(ROWS)), List.of("k"), aggregates);
            assertThat(partial.schema().getFields().stream().map(f -> f.getName() + ":" + QuiverTypes.sqlName(f.getType())).toList())
                    .containsExactly("k:VARCHAR", "avg_m[sum]:DECIMAL(38,2)", "avg_m[count]:BIGINT", "sum_i[sum]:BIGINT");
            assertThat(tc.rows(partial)).containsExactlyInAnyOrder(
                    Arrays.asList("a", new BigDecimal("3.75"), 2L, 30L),
                    Arrays.asList("b", new BigDecimal("7.77"), 1L, 7L),
                    Arrays.asList(null, new BigDecimal("0.05"), 1L, 5L),
                    Arrays.asList("c", null, 0L, null));
        }
    }

    @Test
    void noGroupKeysGivesOneRowAlsoOverEmptyInput() {
        List<AggregateExpr> aggregates = List.of(countStar(), agg(SUM, col(SCHEMA, "i"), "sum_i", QuiverTypes.INT64),
                agg(AVG, col(SCHEMA, "m"), "avg_m", QuiverTypes.decimal(15, 2)), agg(MIN, col(SCHEMA, "s"), "min_s", QuiverTypes.UTF8),
                agg(MAX, col(SCHEMA, "dt"), "max_dt", QuiverTypes.DATE32));
        try (TestingContext tc = new TestingContext()) {
            MemoryScanExec empty = new MemoryScanExec(SCHEMA, List.of(List.of(), List.of()));
            assertThat(tc.rows(single(new MemoryScanExec(SCHEMA, List.of(List.of())), List.of(), aggregates)))
                    .containsExactly(Arrays.asList(0L, null, null, null, null));
            HashAggregateExec partial = partial(empty, List.of(), aggregates);
            List<List<Object>> states = allRows(partial, tc.context());
            tc.reset();
            assertThat(states).containsExactly(Arrays.asList(0L, null, null, 0L, null, null), Arrays.asList(0L, null, null, 0L, null, null));
            assertThat(tc.rows(finalOver(partial, states))).containsExactly(Arrays.asList(0L, null, null, null, null));
            assertThat(tc.rows(single(new MemoryScanExec(SCHEMA, List.of(ROWS)), List.of(), aggregates)))
                    .containsExactly(Arrays.asList(7L, 42L, new BigDecimal("2.89"), "w", 20));
        }
    }

    @Test
    void groupKeysOverEmptyInputGiveNoRows() {
        try (TestingContext tc = new TestingContext()) {
            MemoryScanExec empty = new MemoryScanExec(SCHEMA, List.of(List.of()));
            assertThat(tc.rows(single(empty, List.of("k", "i"), List.of(countStar())))).isEmpty();
            assertThat(tc.rows(partial(empty, List.of("k"), List.of(countStar())))).isEmpty();
        }
    }

    @Test
    void multiColumnKeysOfEveryType() {
        Schema schema = new Schema(List.of(
                QuiverTypes.field("b", QuiverTypes.BOOLEAN, true),
                QuiverTypes.field("i", QuiverTypes.INT32, true),
                QuiverTypes.field("l", QuiverTypes.INT64, true),
                QuiverTypes.field("d", QuiverTypes.FLOAT64, true),
                QuiverTypes.field("m", QuiverTypes.decimal(20, 3), true),
                QuiverTypes.field("s", QuiverTypes.UTF8, true),
                QuiverTypes.field("dt", QuiverTypes.DATE32, true),
                QuiverTypes.field("v", QuiverTypes.INT64, false)));
        List<String> keys = List.of("b", "i", "l", "d", "m", "s", "dt");
        List<List<Object>> rows = new ArrayList<>();
        Map<List<Object>, long[]> expected = new HashMap<>();
        for (int r = 0; r < 3000; r++) {
            List<Object> key = Arrays.asList(
                    r % 7 == 0 ? null : r % 2 == 0,
                    r % 5 == 0 ? null : r % 3,
                    r % 11 == 0 ? null : (long) (r % 4) << 40,
                    r % 13 == 0 ? null : (r % 2) * 0.5,
                    r % 17 == 0 ? null : new BigDecimal(BigInteger.TEN.pow(18).multiply(BigInteger.valueOf(r % 3)), 3),
                    r % 19 == 0 ? null : "key-" + "x".repeat(r % 3 * 9),
                    r % 23 == 0 ? null : 19000 + r % 2);
            List<Object> row = new ArrayList<>(key);
            row.add((long) r);
            rows.add(row);
            long[] acc = expected.computeIfAbsent(key, k -> new long[2]);
            acc[0]++;
            acc[1] += r;
        }
        List<AggregateExpr> aggregates = List.of(countStar(), agg(SUM, col(schema, "v"), "sum_v", QuiverTypes.INT64));
        List<List<Object>> want = expected.entrySet().stream().map(e -> {
            List<Object> row = new ArrayList<>(e.getKey());
            row.add(e.getValue()[0]);
            row.add(e.getValue()[1]);
            return row;
        }).toList();
        try (TestingContext tc = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(256, 2))) {
            assertThat(tc.rows(single(new MemoryScanExec(schema, List.of(rows)), keys, aggregates)))
                    .containsExactlyInAnyOrderElementsOf(want);
            HashAggregateExec partial = partial(MemoryScanExec.split(schema, rows, 3), keys, aggregates);
            List<List<Object>> states = allRows(partial, tc.context());
            tc.reset();
            assertThat(tc.rows(finalOver(partial, states))).containsExactlyInAnyOrderElementsOf(want);
        }
    }

    @Test
    void doubleKeysGroupAsSqlComparesAndOutputTheFirstValueSeen() {
        // -0.0 = 0.0 and NaN = NaN form one group each; a group of -0.0 alone stays -0.0 (as in DuckDB and PostgreSQL)
        Schema schema = new Schema(List.of(QuiverTypes.field("d", QuiverTypes.FLOAT64, true), QuiverTypes.field("s", QuiverTypes.UTF8, true)));
        List<List<Object>> rows = List.of(Arrays.asList(-0.0, "negative"), Arrays.asList(0.0, "both"), Arrays.asList(-0.0, "both"),
                Arrays.asList(Double.NaN, "nan"), Arrays.asList(Double.longBitsToDouble(0x7ff8000000000001L), "nan"), Arrays.asList(null, "negative"));
        try (TestingContext tc = new TestingContext()) {
            assertThat(tc.rows(single(new MemoryScanExec(schema, List.of(rows)), List.of("d", "s"), List.of(countStar()))))
                    .containsExactlyInAnyOrder(Arrays.asList(-0.0, "negative", 1L), Arrays.asList(0.0, "both", 2L),
                            Arrays.asList(Double.NaN, "nan", 2L), Arrays.asList(null, "negative", 1L));
            assertThat(tc.rows(single(new MemoryScanExec(schema, List.of(rows)), List.of("d"), List.of(countStar()))))
                    .containsExactlyInAnyOrder(Arrays.asList(-0.0, 3L), Arrays.asList(Double.NaN, 2L), Arrays.asList(null, 1L));
        }
    }

    @Test
    void distinctAggregatesCountEachValueOncePerGroup() {
        List<List<Object>> rows = List.of(
                row("a", 1, 1L, 1.0, "1.00", "x", 1, true),
                row("a", 1, 1L, 1.0, "1.00", "x", 1, true),
                row("a", 2, 1L, 1.0, "2.00", "y", 1, true),
                row("a", null, 1L, 1.0, null, null, 1, true),
                row("b", 1, 1L, 1.0, "1.00", "x", 1, true),
                row("b", 5, 1L, 1.0, "5.01", "x", 1, true),
                row("b", 5, 1L, 1.0, "5.01", "x", 1, true),
                row("c", null, 1L, 1.0, null, null, 1, true));
        List<AggregateExpr> aggregates = List.of(
                AggregateTesting.distinct(COUNT, col(SCHEMA, "s"), "cd_s", QuiverTypes.INT64),
                distinct(SUM, col(SCHEMA, "i"), "sd_i", QuiverTypes.INT64),
                distinct(AVG, col(SCHEMA, "m"), "ad_m", QuiverTypes.decimal(15, 2)),
                distinct(COUNT, col(SCHEMA, "i"), "cd_i", QuiverTypes.INT64),
                agg(COUNT, col(SCHEMA, "i"), "c_i", QuiverTypes.INT64));
        try (TestingContext tc = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(3, 2))) {
            assertThat(tc.rows(single(new MemoryScanExec(SCHEMA, List.of(rows)), List.of("k"), aggregates))).containsExactlyInAnyOrder(
                    Arrays.asList("a", 2L, 3L, new BigDecimal("1.50"), 2L, 3L),
                    Arrays.asList("b", 1L, 6L, new BigDecimal("3.01"), 2L, 3L),
                    Arrays.asList("c", 0L, null, null, 0L, 0L));
            assertThat(tc.rows(single(new MemoryScanExec(SCHEMA, List.of(rows)), List.of(), aggregates)))
                    .containsExactly(Arrays.asList(2L, 8L, new BigDecimal("2.67"), 3L, 6L));
        }
    }

    @Test
    void distinctIsRefusedOutsideSingleMode() {
        List<AggregateExpr> aggregates = List.of(distinct(COUNT, col(SCHEMA, "s"), "cd_s", QuiverTypes.INT64));
        assertThatThrownBy(() -> partial(new MemoryScanExec(SCHEMA, List.of(ROWS)), List.of("k"), aggregates))
                .isInstanceOf(QuiverException.class).hasMessageContaining("SINGLE");
    }

    @Test
    void decimalSumsBeyondEighteenDigitsAreExact() {
        Schema schema = new Schema(List.of(QuiverTypes.field("k", QuiverTypes.INT32, false),
                QuiverTypes.field("m", QuiverTypes.decimal(18, 0), false),
                QuiverTypes.field("w", QuiverTypes.decimal(38, 4), true)));
        BigDecimal big = new BigDecimal("999999999999999999");
        BigDecimal wide = new BigDecimal("12345678901234567890123456789.1234");
        List<List<Object>> rows = new ArrayList<>();
        BigDecimal[] sums = {BigDecimal.ZERO, BigDecimal.ZERO};
        BigDecimal[] wideSums = {new BigDecimal("0.0000"), new BigDecimal("0.0000")};
        for (int r = 0; r < 5000; r++) {
            int k = r % 2;
            BigDecimal m = k == 0 ? big : big.negate().add(BigDecimal.valueOf(r));
            BigDecimal w = r % 3 == 0 ? wide.negate() : wide;
            rows.add(List.of(k, m, w));
            sums[k] = sums[k].add(m);
            wideSums[k] = wideSums[k].add(w);
        }
        List<AggregateExpr> aggregates = List.of(agg(SUM, col(schema, "m"), "sum_m", QuiverTypes.decimal(38, 0)),
                agg(SUM, col(schema, "w"), "sum_w", QuiverTypes.decimal(38, 4)),
                agg(AVG, col(schema, "m"), "avg_m", QuiverTypes.decimal(18, 0)));
        List<List<Object>> want = List.of(
                List.of(0, sums[0], wideSums[0], sums[0].divide(BigDecimal.valueOf(2500), 0, java.math.RoundingMode.HALF_UP)),
                List.of(1, sums[1], wideSums[1], sums[1].divide(BigDecimal.valueOf(2500), 0, java.math.RoundingMode.HALF_UP)));
        assertThat(sums[0].abs()).isGreaterThan(new BigDecimal(Long.MAX_VALUE));
        try (TestingContext tc = new TestingContext()) {
            assertThat(tc.rows(single(new MemoryScanExec(schema, List.of(rows)), List.of("k"), aggregates)))
                    .containsExactlyInAnyOrderElementsOf(want);
            HashAggregateExec partial = partial(MemoryScanExec.split(schema, rows, 2), List.of("k"), aggregates);
            List<List<Object>> states = allRows(partial, tc.context());
            tc.reset();
            assertThat(tc.rows(finalOver(partial, states))).containsExactlyInAnyOrderElementsOf(want);
        }
    }

    @Test
    void decimalSumBeyondThirtyEightDigitsIsAnError() {
        Schema schema = new Schema(List.of(QuiverTypes.field("w", QuiverTypes.decimal(38, 0), false)));
        BigDecimal max = new BigDecimal("9".repeat(38));
        List<AggregateExpr> aggregates = List.of(agg(SUM, col(schema, "w"), "sum_w", QuiverTypes.decimal(38, 0)));
        try (TestingContext tc = new TestingContext()) {
            assertThatThrownBy(() -> tc.rows(single(new MemoryScanExec(schema, List.of(List.of(List.of(max), List.of(max)))), List.of(), aggregates)))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE))
                    .hasMessageContaining("sum_w");
        }
    }

    @Test
    void bigintSumOverflowIsAnError() {
        Schema schema = new Schema(List.of(QuiverTypes.field("k", QuiverTypes.INT32, false), QuiverTypes.field("l", QuiverTypes.INT64, false)));
        List<List<Object>> rows = List.of(List.of(1, Long.MAX_VALUE - 1), List.of(1, 1L), List.of(1, 1L));
        List<AggregateExpr> aggregates = List.of(agg(SUM, col(schema, "l"), "sum_l", QuiverTypes.INT64));
        try (TestingContext tc = new TestingContext()) {
            assertThatThrownBy(() -> tc.rows(single(new MemoryScanExec(schema, List.of(rows)), List.of("k"), aggregates)))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE));
            HashAggregateExec partial = partial(MemoryScanExec.split(schema, rows, 2), List.of("k"), aggregates);
            List<List<Object>> states = allRows(partial, tc.context());
            tc.reset();
            assertThatThrownBy(() -> tc.rows(finalOver(partial, states)))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE));
        }
    }

    @Test
    void outputBatchesHoldAtMostTheBatchSize() {
        List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < 100; r++) {
            rows.add(row("k" + (r % 10), r, (long) r, 1.0, "1.00", "s", 1, true));
        }
        try (TestingContext tc = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(3, 2))) {
            HashAggregateExec plan = single(new MemoryScanExec(SCHEMA, List.of(rows)), List.of("k"), List.of(countStar()));
            assertThat(PartitionRunner.batchSizes(plan, tc.context())).containsExactly(List.of(3, 3, 3, 1));
        }
    }

    /** What a sampler reads while the aggregate emits: the groups it still holds, and that its input has ended. */
    @Test
    void reportsTheGroupsItStillHoldsAndItsInputsEnd() {
        List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < 100; r++) {
            rows.add(row("k" + (r % 10), r, (long) r, 1.0, "1.00", "s", 1, true));
        }
        MemoryScanExec scan = new MemoryScanExec(SCHEMA, List.of(rows));
        HashAggregateExec plan = single(scan, List.of("k"), List.of(countStar()));
        List<Long> pending = new ArrayList<>();
        try (TestingContext tc = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(4, 2));
                BatchStream stream = plan.execute(0, tc.context())) {
            assertThat(scan.metrics().partition(0).endOfStream()).isFalse();
            VectorSchemaRoot batch;
            while ((batch = stream.next()) != null) {
                batch.close();
                assertThat(scan.metrics().partition(0).endOfStream()).isTrue();
                pending.add(plan.metrics().partition(0).pendingOutputRows());
            }
            assertThat(plan.metrics().partition(0).endOfStream()).isTrue();
        }
        assertThat(pending).containsExactly(6L, 2L, 0L);
        assertThat(plan.metrics().partition(0).pendingOutputRows()).isZero();
    }

    private static Schema intSchema() {
        return new Schema(List.of(QuiverTypes.field("k", QuiverTypes.INT64, false), QuiverTypes.field("v", QuiverTypes.INT64, false)));
    }

    private static List<List<Object>> manyGroups(int rows, int groups) {
        List<List<Object>> result = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            result.add(List.of((long) (r % groups), (long) r));
        }
        return result;
    }

    /** Without spilling (HashAggregateSpillTest covers it): FINAL and SINGLE fail when the pool refuses them. */
    private static ExecutionConfig withoutSpilling(int batchSize, int targetPartitions) {
        return new ExecutionConfig(EngineSettings.REGISTRY.defaults().with(EngineSettings.BATCH_SIZE, batchSize)
                .with(EngineSettings.TARGET_PARTITIONS, targetPartitions).with(EngineSettings.SPILL_ENABLED, false));
    }

    @Test
    void singleOverTheMemoryLimitFailsNamingTheOperatorAndReleasesEverything() {
        MemoryPool pool = new MemoryPool(64 * 1024);
        try (TestingContext tc = new TestingContext(pool, withoutSpilling(1024, 2))) {
            HashAggregateExec plan = single(new MemoryScanExec(intSchema(), List.of(manyGroups(20_000, 20_000))), List.of("k"),
                    List.of(countStar(), agg(SUM, col(intSchema(), "v"), "sum_v", QuiverTypes.INT64)));
            assertThatThrownBy(() -> tc.rows(plan))
                    .isInstanceOf(ResourcesExhaustedException.class)
                    .hasMessageContaining("HashAggregateExec[mode=SINGLE, partition=0]")
                    .hasMessageContaining("spilling is disabled (spill_enabled = false)");
            assertThat(pool.used()).isZero();
        }
    }

    @Test
    void finalOverTheMemoryLimitFailsWhilePartialCompletesUnderTheSameLimit() {
        List<List<Object>> rows = manyGroups(20_000, 5_000);
        List<AggregateExpr> aggregates = List.of(countStar(), agg(SUM, col(intSchema(), "v"), "sum_v", QuiverTypes.INT64),
                agg(AVG, col(intSchema(), "v"), "avg_v", QuiverTypes.FLOAT64));
        HashAggregateExec partial = partial(MemoryScanExec.split(intSchema(), rows, 2), List.of("k"), aggregates);
        List<List<Object>> states;
        MemoryPool tiny = new MemoryPool(16 * 1024);
        try (TestingContext tc = new TestingContext(tiny, withoutSpilling(1024, 2))) {
            states = allRows(partial, tc.context());
            tc.reset();
            assertThat(tiny.used()).isZero();
            // It flushed: more state rows than the 2 partitions x 5000 groups it would hold with room.
            assertThat(states.size()).isGreaterThan(10_000);
            assertThatThrownBy(() -> tc.rows(finalOver(partial, states)))
                    .isInstanceOf(ResourcesExhaustedException.class)
                    .hasMessageContaining("HashAggregateExec[mode=FINAL, partition=0]")
                    .hasMessageContaining("spilling is disabled (spill_enabled = false)");
            assertThat(tiny.used()).isZero();
        }
        List<List<Object>> want = new ArrayList<>();
        for (long k = 0; k < 5000; k++) {
            long sum = k * 4 + 5000L * (0 + 1 + 2 + 3);
            want.add(List.of(k, 4L, sum, sum / 4.0));
        }
        try (TestingContext tc = new TestingContext()) {
            assertThat(tc.rows(finalOver(partial, states))).containsExactlyInAnyOrderElementsOf(want);
        }
    }

    @Test
    void partialPassesThroughWhenItReducesPoorly() {
        List<List<Object>> rows = manyGroups(150_000, 150_000);
        List<AggregateExpr> aggregates = List.of(countStar());
        try (TestingContext tc = new TestingContext()) {
            HashAggregateExec partial = partial(new MemoryScanExec(intSchema(), List.of(rows)), List.of("k"), aggregates);
            List<List<Object>> states = allRows(partial, tc.context());
            tc.reset();
            assertThat(states).hasSize(150_000);
            // After the check at 100k rows it holds one batch at a time instead of every group.
            long peak = partial.metrics().partition(0).peakMemoryBytes();
            assertThat(peak).isPositive();
            HashAggregateExec full = single(new MemoryScanExec(intSchema(), List.of(rows)), List.of("k"), aggregates);
            assertThat(tc.rows(full)).hasSize(150_000);
            assertThat(full.metrics().partition(0).peakMemoryBytes()).isGreaterThan(peak);
        }
    }

    @Test
    void skippingPartialAggregationGivesTheSameGroupsAsHashing() {
        // The first 120k rows have distinct keys, so the partial aggregate stops hashing after the
        // check at 100k; the last 40k repeat keys it hashed before, and the final aggregate must
        // merge both kinds of state rows. NULL keys, NULL values and every function are included.
        int count = 160_000;
        List<List<Object>> rows = new ArrayList<>(count);
        long sumL = 0;
        for (int r = 0; r < count; r++) {
            Long l = r % 5 == 0 ? null : (long) r * 3;
            sumL += l == null ? 0 : l;
            rows.add(row(r % 1000 == 7 ? null : "k" + r % 120_000, r % 11 == 0 ? null : r, l, r * 0.25,
                    r % 7 == 0 ? null : r + ".01", "s" + r % 101, r % 400, r % 9 == 0 ? null : r % 2 == 0));
        }
        List<AggregateExpr> aggregates = everyFunction();
        try (TestingContext tc = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(4096, 1))) {
            List<List<Object>> expected = tc.rows(single(new MemoryScanExec(SCHEMA, List.of(rows)), List.of("k", "b"), aggregates));
            HashAggregateExec partial = partial(new MemoryScanExec(SCHEMA, List.of(rows)), List.of("k", "b"), aggregates);
            List<List<Object>> states = allRows(partial, tc.context());
            tc.reset();
            // hardly any reduction: only rows with a NULL key share groups before the switch
            assertThat(states.size()).isGreaterThan(count - 200);
            List<List<Object>> actual = tc.rows(finalOver(partial, states));
            assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(actual.stream().mapToLong(row -> (Long) row.get(2)).sum()).isEqualTo(count);
            assertThat(actual.stream().filter(row -> row.get(5) != null).mapToLong(row -> (Long) row.get(5)).sum()).isEqualTo(sumL);
        }
    }

    @Test
    void argumentsMayBeExpressions() {
        PhysicalExpr literal = new LiteralExpr(3L, QuiverTypes.INT64);
        try (TestingContext tc = new TestingContext()) {
            HashAggregateExec plan = single(new MemoryScanExec(SCHEMA, List.of(ROWS)), List.of("k"),
                    List.of(agg(SUM, literal, "sum_3", QuiverTypes.INT64)));
            assertThat(tc.rows(plan)).containsExactlyInAnyOrder(
                    Arrays.asList("a", 6L), Arrays.asList("b", 6L), Arrays.asList(null, 6L), Arrays.asList("c", 3L));
        }
    }
    @Test
    void groupKeysMayBeExpressions() {
        PhysicalExpr parity = new BinaryExpr(BinaryOperator.MODULO, col(intSchema(), "v"),
                new LiteralExpr(2L, QuiverTypes.INT64), QuiverTypes.INT64);
        try (TestingContext tc = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(7, 2))) {
            HashAggregateExec plan = new HashAggregateExec(AggregateMode.SINGLE, List.of(parity), List.of("parity"),
                    List.of(countStar(), agg(SUM, col(intSchema(), "v"), "sum_v", QuiverTypes.INT64)),
                    new MemoryScanExec(intSchema(), List.of(manyGroups(100, 10))));
            assertThat(tc.rows(plan)).containsExactlyInAnyOrder(List.of(0L, 50L, 2450L), List.of(1L, 50L, 2500L));
        }
    }

    @Test
    void partialRepartitionFinalEqualsSingle() {
        List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < 5000; r++) {
            rows.add(row(r % 13 == 0 ? null : "k" + r % 37, r % 11 == 0 ? null : r, (long) r * 3, r * 0.25,
                    r % 7 == 0 ? null : r + ".01", "s" + r % 101, r % 400, r % 3 == 0));
        }
        List<AggregateExpr> aggregates = everyFunction();
        try (TestingContext tc = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(128, 3))) {
            List<List<Object>> expected = tc.rows(single(new MemoryScanExec(SCHEMA, List.of(rows)), List.of("k", "b"), aggregates));
            assertThat(expected).hasSize(38 * 2);
            HashAggregateExec partial = partial(MemoryScanExec.split(SCHEMA, rows, 3), List.of("k", "b"), aggregates);
            List<PhysicalExpr> keys = List.of(col(partial.schema(), "k"), col(partial.schema(), "b"));
            HashAggregateExec two = new HashAggregateExec(AggregateMode.FINAL, keys, List.of("k", "b"), aggregates,
                    new RepartitionExec(partial, new Partitioning.Hash(keys, 3)));
            assertThat(allRows(two, tc.context())).containsExactlyInAnyOrderElementsOf(expected);
            tc.reset();
        }
    }
}
