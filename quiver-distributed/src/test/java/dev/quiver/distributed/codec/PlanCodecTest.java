package dev.quiver.distributed.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.PlanDisplay;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.CaseExpr;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.CastExpr;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.InListExpr;
import dev.quiver.engine.expr.IsNullExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.NegateExpr;
import dev.quiver.engine.expr.NotExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.expr.ScalarFunctionExpr;
import dev.quiver.engine.expr.TryCastExpr;
import dev.quiver.engine.expr.function.FunctionRegistry;
import dev.quiver.engine.operator.FilterExec;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.operator.UnionExec;
import dev.quiver.engine.operator.ValuesExec;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateFunction;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.ExpandExec;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.exchange.SortPreservingMergeExec;
import dev.quiver.engine.operator.join.HashJoinExec;
import dev.quiver.engine.operator.join.JoinType;
import dev.quiver.engine.operator.join.NestedLoopJoinExec;
import dev.quiver.engine.operator.join.PartitionMode;
import dev.quiver.engine.operator.limit.GlobalLimitExec;
import dev.quiver.engine.operator.limit.LocalLimitExec;
import dev.quiver.engine.operator.sort.SortExec;
import dev.quiver.engine.operator.sort.SortKey;
import dev.quiver.engine.operator.window.FrameBound;
import dev.quiver.engine.operator.window.FrameOffset;
import dev.quiver.engine.operator.window.WindowExec;
import dev.quiver.engine.operator.window.WindowExpr;
import dev.quiver.engine.operator.window.WindowFrame;
import dev.quiver.engine.operator.window.WindowFunction;
import dev.quiver.engine.source.memory.InMemoryTable;
import dev.quiver.engine.source.memory.MemoryChunk;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.source.memory.MemoryTableScanExec;
import dev.quiver.engine.source.memory.StoredBatch;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every built-in node and expression survives encode/decode: same display, same schema, same rows. */
class PlanCodecTest {
    private static final ArrowType MONEY = QuiverTypes.decimal(15, 2);
    private static final Schema ITEMS = new Schema(List.of(
            QuiverTypes.field("id", QuiverTypes.INT64, false),
            QuiverTypes.field("grp", QuiverTypes.INT32, true),
            QuiverTypes.field("price", MONEY, true),
            QuiverTypes.field("day", QuiverTypes.DATE32, true),
            QuiverTypes.field("name", QuiverTypes.UTF8, true),
            QuiverTypes.field("score", QuiverTypes.FLOAT64, true),
            QuiverTypes.field("flag", QuiverTypes.BOOLEAN, true)));
    private static final Schema GROUPS = new Schema(List.of(
            QuiverTypes.field("g_id", QuiverTypes.INT32, false),
            QuiverTypes.field("g_label", QuiverTypes.UTF8, false)));

    private final PlanCodec codec = PlanCodec.create();
    private TestingContext testing;

    @BeforeEach
    void setUp() {
        testing = new TestingContext();
    }

    @AfterEach
    void tearDown() {
        testing.close();
    }

    private static List<List<Object>> itemRows() {
        List<List<Object>> rows = new ArrayList<>();
        String[] names = {"apple", "banana", "cherry", null, "date", "elder", "fig", "grape", "apple", "kiwi"};
        for (int i = 0; i < 10; i++) {
            rows.add(Arrays.asList((long) i, i % 3 == 2 ? null : i % 3, i == 4 ? null : new BigDecimal(i * 3 + ".25"),
                    i == 7 ? null : 19000 + i, names[i], i == 5 ? null : i / 4.0, i == 3 ? null : i % 2 == 0));
        }
        return rows;
    }

    private static MemoryScanExec items(int partitions) {
        return MemoryScanExec.split(ITEMS, itemRows(), partitions);
    }

    private static MemoryScanExec groups() {
        return new MemoryScanExec(GROUPS, List.of(List.of(List.of(0, "zero"), List.of(1, "one")), List.of(List.of(5, "five"))));
    }

    private static ColumnExpr col(Schema schema, String name) {
        for (int i = 0; i < schema.getFields().size(); i++) {
            Field field = schema.getFields().get(i);
            if (field.getName().equals(name)) {
                return new ColumnExpr(i, name, field.getType(), field.isNullable());
            }
        }
        throw new IllegalArgumentException(name);
    }

    private static ColumnExpr item(String name) {
        return col(ITEMS, name);
    }

    /** Encodes and decodes {@code plan}, checking what must be equal without running it. */
    private ExecutionPlan roundTrip(ExecutionPlan plan) {
        byte[] bytes = codec.encode(plan);
        ExecutionPlan decoded = codec.decode(bytes);
        assertThat(decoded).isNotSameAs(plan);
        assertThat(decoded.getClass()).isEqualTo(plan.getClass());
        assertThat(PlanDisplay.indent(decoded)).isEqualTo(PlanDisplay.indent(plan));
        assertThat(decoded.schema()).isEqualTo(plan.schema());
        assertThat(decoded.outputPartitioning().toString()).isEqualTo(plan.outputPartitioning().toString());
        assertThat(codec.encode(decoded)).as("re-encoding gives the same bytes").isEqualTo(bytes);
        return decoded;
    }

    /** The round trip runs to the same rows as the original (in any order: partitions run concurrently). */
    private List<List<Object>> assertSameRows(ExecutionPlan plan) {
        ExecutionPlan decoded = roundTrip(plan);
        List<List<Object>> expected = testing.rows(plan);
        assertThat(testing.rows(decoded)).containsExactlyInAnyOrderElementsOf(expected);
        return expected;
    }

    @Test
    void memoryScanKeepsEveryValueAndItsJavaClass() {
        MemoryScanExec scan = items(3);
        MemoryScanExec decoded = (MemoryScanExec) roundTrip(scan);
        assertThat(decoded.partitions()).isEqualTo(scan.partitions());
        for (int p = 0; p < scan.partitions().size(); p++) {
            for (int r = 0; r < scan.partitions().get(p).size(); r++) {
                List<Object> before = scan.partitions().get(p).get(r);
                List<Object> after = decoded.partitions().get(p).get(r);
                for (int c = 0; c < before.size(); c++) {
                    if (before.get(c) != null) {
                        assertThat(after.get(c)).isExactlyInstanceOf(before.get(c).getClass());
                    }
                }
            }
        }
        assertThat(assertSameRows(scan)).hasSize(10);
    }

    @Test
    void memoryTableScanShipsItsBatchesAsArrowIpc() {
        List<StoredBatch> batches = new ArrayList<>();
        List<List<Object>> rows = itemRows();
        for (int from = 0; from < rows.size(); from += 4) {
            batches.add(new StoredBatch("items", Batches.fromRows(ITEMS, rows.subList(from, Math.min(rows.size(), from + 4)), testing.allocator())));
        }
        InMemoryTable table = new InMemoryTable(1, "items", ITEMS, batches);
        try {
            ExecutionPlan scan = table.scan(new ScanRequest(Optional.of(List.of(4, 2, 0)), List.of(), 2));
            ExecutionPlan decoded = roundTrip(scan);
            assertThat(((MemoryTableScanExec) decoded).partitions().stream().flatMap(List::stream)).allMatch(MemoryChunk.Ipc.class::isInstance);
            assertThat(assertSameRows(scan)).hasSize(10).contains(Arrays.asList("cherry", new BigDecimal("6.25"), 2L));
        } finally {
            table.release();
        }
    }

    @Test
    void valuesKeepDecimalScaleAndTypes() {
        Schema schema = new Schema(List.of(QuiverTypes.field("d", QuiverTypes.decimal(20, 3), true),
                QuiverTypes.field("t", QuiverTypes.TIMESTAMP, true), QuiverTypes.field("x", QuiverTypes.FLOAT64, true)));
        ValuesExec values = new ValuesExec(schema, List.of(
                Arrays.asList(new BigDecimal("1.500"), 1_700_000_000_000_000L, Double.NaN),
                Arrays.asList(new BigDecimal("-12345678901234567.000"), null, Double.NEGATIVE_INFINITY),
                Arrays.asList(null, 0L, 0.1)));
        ValuesExec decoded = (ValuesExec) roundTrip(values);
        assertThat(decoded.rows()).isEqualTo(values.rows());
        assertThat(((BigDecimal) decoded.rows().get(0).get(0)).scale()).isEqualTo(3);
        assertThat(assertSameRows(values)).hasSize(3);
    }

    @Test
    void everyExpressionRoundTripsToAnEqualRecord() {
        List<PhysicalExpr> exprs = expressions();
        for (PhysicalExpr expr : exprs) {
            PhysicalExpr decoded = codec.exprFromTree(codec.exprToTree(expr));
            assertThat(decoded).as(expr.display()).isEqualTo(expr);
            assertThat(decoded.display()).isEqualTo(expr.display());
        }
        assertThat(exprs.stream().map(Object::getClass).distinct()).hasSize(11);
    }

    @Test
    void literalsKeepTheirJavaClass() {
        List<Object> values = Arrays.asList(null, true, 7, 7L, 2.5, new BigDecimal("2.50"), "text", 19000);
        for (Object value : values) {
            LiteralExpr literal = new LiteralExpr(value, QuiverTypes.INT64);
            LiteralExpr decoded = (LiteralExpr) codec.exprFromTree(codec.exprToTree(literal));
            assertThat(decoded).isEqualTo(literal);
            if (value != null) {
                assertThat(decoded.value()).isExactlyInstanceOf(value.getClass());
            }
        }
    }

    private static List<PhysicalExpr> expressions() {
        ColumnExpr price = item("price");
        ColumnExpr name = item("name");
        ColumnExpr grp = item("grp");
        PhysicalExpr bigPrice = new BinaryExpr(BinaryOperator.GT, price, new LiteralExpr(new BigDecimal("10.00"), MONEY), QuiverTypes.BOOLEAN);
        return List.of(
                price,
                new LiteralExpr(new BigDecimal("10.00"), MONEY),
                new BinaryExpr(BinaryOperator.MULTIPLY, price, new LiteralExpr(2, QuiverTypes.INT32), QuiverTypes.decimal(26, 2)),
                new NotExpr(item("flag")),
                new NegateExpr(item("score")),
                new IsNullExpr(name, true),
                new CaseExpr(List.of(new CaseExpr.WhenThen(bigPrice, new LiteralExpr("big", QuiverTypes.UTF8))),
                        Optional.of(new LiteralExpr("small", QuiverTypes.UTF8)), QuiverTypes.UTF8),
                new CaseExpr(List.of(new CaseExpr.WhenThen(item("flag"), grp)), Optional.empty(), QuiverTypes.INT32),
                new CastExpr(grp, QuiverTypes.INT64),
                new CastExpr(grp, QuiverTypes.UTF8, Optional.of(new QuiverException.SqlPosition(3, 14))),
                FunctionRegistry.builtins().require("like").call(List.of(name, new LiteralExpr("%an%", QuiverTypes.UTF8)), QuiverTypes.BOOLEAN),
                new NotExpr(FunctionRegistry.builtins().require("like").call(List.of(name, new LiteralExpr("a!%%", QuiverTypes.UTF8), new LiteralExpr("!", QuiverTypes.UTF8)), QuiverTypes.BOOLEAN)),
                new TryCastExpr(name, QuiverTypes.INT64),
                new InListExpr(grp, Arrays.asList(0, null), false),
                new InListExpr(name, List.of("fig", "kiwi"), true),
                new ScalarFunctionExpr(FunctionRegistry.builtins().require("upper"), List.of(name), QuiverTypes.UTF8),
                new ScalarFunctionExpr(FunctionRegistry.builtins().require("year"), List.of(item("day")), QuiverTypes.INT64),
                new ScalarFunctionExpr(FunctionRegistry.builtins().require("coalesce"), List.of(name, new LiteralExpr(null, QuiverTypes.UTF8)), QuiverTypes.UTF8));
    }

    @Test
    void projectionOfEveryExpressionGivesTheSameRows() {
        List<PhysicalExpr> exprs = expressions();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < exprs.size(); i++) {
            names.add("e" + i);
        }
        List<List<Object>> rows = assertSameRows(new ProjectionExec(exprs, names, items(2)));
        assertThat(rows).hasSize(10);
    }

    @Test
    void filterAndLimits() {
        PhysicalExpr predicate = new BinaryExpr(BinaryOperator.AND, new IsNullExpr(item("name"), true),
                new BinaryExpr(BinaryOperator.LT, item("id"), new LiteralExpr(8L, QuiverTypes.INT64), QuiverTypes.BOOLEAN), QuiverTypes.BOOLEAN);
        assertThat(assertSameRows(new FilterExec(predicate, items(2)))).hasSize(7);
        assertThat(assertSameRows(new LocalLimitExec(items(2), 2))).hasSize(4);
        SortExec sorted = new SortExec(items(1), List.of(new SortKey(item("id"), true, false)), OptionalLong.empty(), false);
        assertThat(assertSameRows(new GlobalLimitExec(sorted, 3, OptionalLong.of(4))))
                .extracting(row -> row.get(0)).containsExactly(3L, 4L, 5L, 6L);
        assertThat(assertSameRows(new GlobalLimitExec(sorted, 8, OptionalLong.empty()))).hasSize(2);
    }

    @Test
    void sortsAndExchanges() {
        List<SortKey> keys = List.of(new SortKey(item("grp"), false, true), new SortKey(item("price"), true, false));
        SortExec perPartition = new SortExec(items(3), keys, OptionalLong.of(2), true);
        assertThat(assertSameRows(perPartition)).hasSize(6);
        assertThat(assertSameRows(new SortPreservingMergeExec(new SortExec(items(3), keys, OptionalLong.empty(), true), keys,
                OptionalLong.of(5)))).hasSize(5);
        assertThat(assertSameRows(new CoalescePartitionsExec(items(3)))).hasSize(10);
        assertThat(assertSameRows(new RepartitionExec(items(2), new Partitioning.Hash(List.of(item("grp"), item("name")), 3)))).hasSize(10);
        assertThat(assertSameRows(new RepartitionExec(items(2), new Partitioning.RoundRobin(4)))).hasSize(10);
        assertThat(assertSameRows(new UnionExec(List.of(items(2), items(1))))).hasSize(20);
    }

    @Test
    void aggregatesInEveryMode() {
        List<AggregateExpr> aggregates = List.of(
                new AggregateExpr(AggregateFunction.COUNT, List.of(), false, "n", QuiverTypes.INT64),
                new AggregateExpr(AggregateFunction.SUM, List.of(item("price")), false, "total", QuiverTypes.decimal(38, 2)),
                new AggregateExpr(AggregateFunction.AVG, List.of(item("score")), false, "mean", QuiverTypes.FLOAT64),
                new AggregateExpr(AggregateFunction.MIN, List.of(item("name")), false, "first", QuiverTypes.UTF8),
                new AggregateExpr(AggregateFunction.MAX, List.of(item("day")), false, "last", QuiverTypes.DATE32));
        HashAggregateExec single = new HashAggregateExec(AggregateMode.SINGLE, List.of(item("grp")), List.of("grp"), aggregates, items(1));
        assertThat(assertSameRows(single)).hasSize(3);
        HashAggregateExec distinct = new HashAggregateExec(AggregateMode.SINGLE, List.of(), List.of(),
                List.of(new AggregateExpr(AggregateFunction.COUNT, List.of(item("name")), true, "names", QuiverTypes.INT64)), items(1));
        assertThat(assertSameRows(distinct)).containsExactly(List.of(8L));

        HashAggregateExec partial = new HashAggregateExec(AggregateMode.PARTIAL, List.of(item("grp")), List.of("grp"), aggregates, items(3));
        ColumnExpr key = col(partial.schema(), "grp");
        RepartitionExec shuffle = new RepartitionExec(partial, new Partitioning.Hash(List.of(key), 2));
        HashAggregateExec fin = new HashAggregateExec(AggregateMode.FINAL, List.of(key), List.of("grp"), aggregates, shuffle);
        assertThat(assertSameRows(fin)).containsExactlyInAnyOrderElementsOf(testing.rows(single));
    }

    /** Every window function, frame unit, bound kind, offset kind and exclusion survives the trip. */
    @Test
    void windowsWithEveryFunctionAndFrame() {
        ColumnExpr grp = item("grp");
        List<SortKey> order = List.of(new SortKey(item("day"), true, false), new SortKey(item("name"), false, true));
        LiteralExpr two = new LiteralExpr(2L, QuiverTypes.INT64);
        WindowFrame rows = new WindowFrame(WindowFrame.Units.ROWS, FrameBound.preceding(new FrameOffset.Count(2)),
                FrameBound.following(new FrameOffset.Count(1)), WindowFrame.Exclusion.CURRENT_ROW);
        WindowFrame groups = new WindowFrame(WindowFrame.Units.GROUPS, FrameBound.currentRow(), FrameBound.unboundedFollowing(),
                WindowFrame.Exclusion.TIES);
        WindowFrame days = new WindowFrame(WindowFrame.Units.RANGE, FrameBound.preceding(new FrameOffset.Interval(1, 0)),
                FrameBound.following(new FrameOffset.Interval(0, 86_400_000_000L)), WindowFrame.Exclusion.GROUP);
        WindowFrame money = new WindowFrame(WindowFrame.Units.RANGE, FrameBound.unboundedPreceding(),
                FrameBound.following(new FrameOffset.Number(new BigDecimal("1.50"))), WindowFrame.Exclusion.NO_OTHERS);
        List<WindowExpr> exprs = List.of(
                new WindowExpr(new WindowFunction.RowNumber(), WindowFrame.DEFAULT_WITH_ORDER, "rn"),
                new WindowExpr(new WindowFunction.Rank(WindowFunction.Rank.Kind.PERCENT_RANK), WindowFrame.DEFAULT_WITH_ORDER, "pr"),
                new WindowExpr(new WindowFunction.Ntile(two), WindowFrame.DEFAULT_WITH_ORDER, "tile"),
                new WindowExpr(new WindowFunction.LagLead(true, item("price"), two, new LiteralExpr(null, MONEY), true), WindowFrame.DEFAULT_WITH_ORDER, "next"),
                new WindowExpr(new WindowFunction.FrameValue(WindowFunction.FrameValue.Position.NTH, item("name"), two, false), rows, "second"),
                new WindowExpr(new WindowFunction.Aggregate(new AggregateExpr(AggregateFunction.COUNT, List.of(), false, "n", QuiverTypes.INT64)),
                        groups, "n"),
                new WindowExpr(new WindowFunction.Aggregate(new AggregateExpr(AggregateFunction.MAX, List.of(item("price")), false, "m", MONEY)),
                        WindowFrame.WHOLE_PARTITION, "m"));
        List<SortKey> sortKeys = new ArrayList<>(List.of(new SortKey(grp, true, true)));
        sortKeys.addAll(order);
        ExecutionPlan sorted = new SortExec(new RepartitionExec(items(2), new Partitioning.Hash(List.of(grp), 2)), sortKeys, OptionalLong.empty(), true);
        assertThat(assertSameRows(new WindowExec(sorted, List.of(grp), order, exprs))).hasSize(10);
        SortKey price = new SortKey(item("price"), true, false);
        SortKey day = new SortKey(item("day"), false, true);
        WindowExpr count = new WindowExpr(new WindowFunction.Aggregate(new AggregateExpr(AggregateFunction.COUNT, List.of(), false, "n",
                QuiverTypes.INT64)), money, "n");
        WindowExpr distinctSum = new WindowExpr(new WindowFunction.Aggregate(new AggregateExpr(AggregateFunction.SUM, List.of(item("price")),
                true, "s", QuiverTypes.decimal(38, 2))), days, "s");
        ExecutionPlan byPrice = new SortExec(items(1), List.of(price), OptionalLong.empty(), false);
        assertThat(assertSameRows(new WindowExec(byPrice, List.of(), List.of(price), List.of(count)))).hasSize(10);
        ExecutionPlan byDay = new SortExec(items(1), List.of(day), OptionalLong.empty(), false);
        assertThat(assertSameRows(new WindowExec(byDay, List.of(), List.of(day), List.of(distinctSum)))).hasSize(10);
    }

    @Test
    void statisticalHolisticAndGroupingSetAggregates() {
        List<AggregateExpr> decomposable = List.of(
                new AggregateExpr(AggregateFunction.STDDEV_SAMP, List.of(item("price")), false, "sd", QuiverTypes.FLOAT64),
                new AggregateExpr(AggregateFunction.VAR_POP, List.of(item("grp")), false, "var", QuiverTypes.FLOAT64),
                new AggregateExpr(AggregateFunction.CORR, List.of(item("score"), item("price")), false, "r", QuiverTypes.FLOAT64),
                new AggregateExpr(AggregateFunction.REGR_SLOPE, List.of(item("score"), item("id")), false, "slope", QuiverTypes.FLOAT64),
                new AggregateExpr(AggregateFunction.COUNT, List.of(item("score"), item("price")), false, "pairs", QuiverTypes.INT64));
        HashAggregateExec partial = new HashAggregateExec(AggregateMode.PARTIAL, List.of(item("flag")), List.of("flag"), decomposable, items(3));
        ColumnExpr key = col(partial.schema(), "flag");
        HashAggregateExec fin = new HashAggregateExec(AggregateMode.FINAL, List.of(key), List.of("flag"), decomposable,
                new RepartitionExec(partial, new Partitioning.Hash(List.of(key), 2)));
        assertThat(assertSameRows(fin)).hasSize(3);

        List<AggregateExpr> holistic = List.of(
                new AggregateExpr(AggregateFunction.PERCENTILE_CONT, List.of(), false, "median", MONEY,
                        List.of(new SortKey(item("price"), true, false)), List.of(new BigDecimal("0.5"))),
                new AggregateExpr(AggregateFunction.PERCENTILE_DISC, List.of(), false, "p90", QuiverTypes.DATE32,
                        List.of(new SortKey(item("day"), false, true)), List.of(new BigDecimal("0.9"))),
                new AggregateExpr(AggregateFunction.MODE, List.of(item("name")), false, "mode", QuiverTypes.UTF8),
                new AggregateExpr(AggregateFunction.STRING_AGG, List.of(item("name")), false, "names", QuiverTypes.UTF8,
                        List.of(new SortKey(item("score"), false, true), new SortKey(item("id"), true, false)), List.of(" | ")));
        ExpandExec expand = new ExpandExec(items(2), List.of(item("grp"), item("flag")), List.of("key_grp", "key_flag"),
                List.of(List.of(0, 1), List.of(0), List.of()));
        List<PhysicalExpr> keys = List.of(col(expand.schema(), "key_grp"), col(expand.schema(), "key_flag"), col(expand.schema(), ExpandExec.GROUPING_SET));
        HashAggregateExec grouped = new HashAggregateExec(AggregateMode.SINGLE, keys, List.of("grp", "flag", "set"), holistic,
                new RepartitionExec(expand, new Partitioning.Hash(keys, 2)), Optional.of(col(expand.schema(), ExpandExec.SEED)));
        ExecutionPlan decoded = roundTrip(grouped);
        assertThat(((HashAggregateExec) decoded).aggregates()).isEqualTo(holistic);
        assertThat(((ExpandExec) decoded.children().get(0).children().get(0)).groupingSets()).isEqualTo(expand.groupingSets());
        // grp has 3 values (0, 1, NULL), flag 3: 7 (grp, flag) groups, 3 grp groups, 1 global group
        assertThat(assertSameRows(grouped)).hasSize(11);
    }

    @Test
    void joins() {
        ColumnExpr gid = col(GROUPS, "g_id");
        PhysicalExpr filter = new BinaryExpr(BinaryOperator.NOT_EQ, col(GROUPS, "g_label"), new LiteralExpr("one", QuiverTypes.UTF8),
                QuiverTypes.BOOLEAN);
        HashJoinExec collectLeft = new HashJoinExec(groups(), items(2), List.of(gid), List.of(item("grp")), JoinType.INNER,
                Optional.empty(), PartitionMode.COLLECT_LEFT);
        assertThat(assertSameRows(collectLeft)).hasSize(7);
        HashJoinExec partitioned = new HashJoinExec(
                new RepartitionExec(groups(), new Partitioning.Hash(List.of(gid), 2)),
                new RepartitionExec(items(2), new Partitioning.Hash(List.of(item("grp")), 2)),
                List.of(gid), List.of(item("grp")), JoinType.FULL, Optional.of(filter), PartitionMode.PARTITIONED);
        assertThat(assertSameRows(partitioned)).hasSize(12);
        NestedLoopJoinExec nested = new NestedLoopJoinExec(groups(), items(2), JoinType.LEFT, Optional.of(filter));
        assertThat(assertSameRows(nested)).hasSize(21);
        NestedLoopJoinExec cross = new NestedLoopJoinExec(groups(), items(1), JoinType.INNER, Optional.empty());
        assertThat(assertSameRows(cross)).hasSize(30);
    }

    @Test
    void tpchScanKeepsTableProjectionAndPartitions() {
        TpchCatalog catalog = new TpchCatalog(0.01);
        ExecutionPlan scan = catalog.table("nation").orElseThrow().scan(new ScanRequest(Optional.of(List.of(1, 0)), List.of(), 4));
        assertThat(assertSameRows(scan)).hasSize(25);
        ExecutionPlan orders = catalog.table("orders").orElseThrow().scan(new ScanRequest(Optional.of(List.of(0, 3)), List.of(), 3));
        assertThat(roundTrip(orders).outputPartitioning().partitionCount()).isEqualTo(3);
    }

    @Test
    void compressedBytesDecodeToTheSamePlan() {
        ExecutionPlan plan = new FilterExec(new IsNullExpr(item("name"), false), items(2));
        PlanCodec compressing = PlanCodec.builder().compress(true).build();
        byte[] compressed = compressing.encode(plan);
        assertThat(compressed[0] & 0xff).isEqualTo(0x1f);
        assertThat(PlanDisplay.indent(codec.decode(compressed))).isEqualTo(PlanDisplay.indent(plan));
        assertThat(PlanDisplay.indent(compressing.decode(codec.encode(plan)))).isEqualTo(PlanDisplay.indent(plan));
    }
}
