package dev.quiver.distributed.aqe;

import static dev.quiver.distributed.aqe.AqeFixtures.column;
import static dev.quiver.distributed.aqe.AqeFixtures.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.FilterExec;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.operator.join.HashJoinExec;
import dev.quiver.engine.operator.join.JoinType;
import dev.quiver.engine.operator.join.PartitionMode;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchScanExec;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class CostModelTest {
    private final CostModel model = new CostModel();

    @Test
    void aScanCostsTheBytesItReads() {
        ExecutionPlan lineitem = scan(new TpchCatalog(0.01), "lineitem", 2);
        long bytes = lineitem.partitionStatistics(OptionalInt.empty()).totalBytes().value();
        StageCost cost = model.cost(lineitem);
        assertThat(cost.costBytes()).isEqualTo(bytes);
        assertThat(cost.outputRows()).isEqualTo(lineitem.partitionStatistics(OptionalInt.empty()).rowCount().value());
        assertThat(cost.operators()).singleElement().satisfies(op -> assertThat(op.formula()).startsWith("read "));
        assertThat(cost.unknownLeaves()).isEmpty();
    }

    @Test
    void costGrowsWithTheData() {
        long small = model.cost(filteredProjection(new TpchCatalog(0.01))).costBytes();
        long large = model.cost(filteredProjection(new TpchCatalog(0.1))).costBytes();
        assertThat(small).isPositive();
        assertThat((double) large / small).isCloseTo(10.0, within(0.5));
    }

    @Test
    void propagatesRowsAndBytesUpThePlanOperatorByOperator() {
        ExecutionPlan plan = filteredProjection(new TpchCatalog(0.01));
        StageCost cost = model.cost(plan);
        OperatorCost projection = cost.operators().get(0);
        OperatorCost filter = cost.operators().get(1);
        OperatorCost scan = cost.operators().get(2);
        assertThat(cost.operators()).extracting(OperatorCost::operator).containsExactly("ProjectionExec", "FilterExec", "TpchScanExec");
        // the filter reads every input byte and keeps the default selectivity
        assertThat(filter.workBytes()).isEqualTo(scan.outputBytes());
        assertThat(filter.outputRows()).isEqualTo(Math.round(scan.outputRows() * CostRules.FILTER_SELECTIVITY));
        // the projection keeps two of sixteen columns: fewer bytes than its input
        assertThat(projection.outputRows()).isEqualTo(filter.outputRows());
        assertThat(projection.outputBytes()).isLessThan(filter.outputBytes() / 3);
        assertThat(cost.costBytes()).isEqualTo(scan.workBytes() + filter.workBytes() + projection.workBytes());
        assertThat(cost.outputRows()).isEqualTo(projection.outputRows());
    }

    @Test
    void aStageInputCostsTheRuntimeStatisticsAttachedToIt() {
        ExecutionPlan orders = scan(new TpchCatalog(0.01), "orders", 2);
        StageInputExec input = new StageInputExec(0, BoundaryKind.SHUFFLE, orders.schema(), List.of(column(orders, "o_orderkey")), 1, 1, 1, 2,
                Statistics.unknown(orders.schema()), Optional.empty());
        StageCost unknown = model.cost(input);
        assertThat(unknown.costBytes()).isZero();
        assertThat(unknown.unknownLeaves()).singleElement().asString().startsWith("StageInputExec");

        Statistics sampled = new Statistics(Estimate.inexact(1000), Estimate.inexact(64 << 20), Statistics.unknown(orders.schema()).columns());
        StageCost known = model.cost(input.withStatistics(sampled));
        assertThat(known.costBytes()).isEqualTo(64 << 20);
        assertThat(known.outputRows()).isEqualTo(1000);
        assertThat(known.operators().get(0).formula()).startsWith("receive 64.0 MiB");
    }

    @Test
    void aHashJoinBuildsTwiceItsBuildSideAndProbesOnce() {
        TpchCatalog catalog = new TpchCatalog(0.01);
        ExecutionPlan orders = scan(catalog, "orders", 1);
        ExecutionPlan lineitem = scan(catalog, "lineitem", 2);
        ExecutionPlan join = new HashJoinExec(orders, lineitem, List.of(column(orders, "o_orderkey")), List.of(column(lineitem, "l_orderkey")),
                JoinType.INNER, Optional.empty(), PartitionMode.COLLECT_LEFT);
        StageCost cost = model.cost(join);
        OperatorCost top = cost.operators().get(0);
        long build = cost.operators().get(1).outputBytes();
        long probe = cost.operators().get(2).outputBytes();
        assertThat(top.outputRows()).isEqualTo(cost.operators().get(2).outputRows());
        assertThat(top.workBytes()).isCloseTo(2 * build + probe + top.outputBytes(), within(2L));
        assertThat(top.formula()).startsWith("build 2.0 × ");
    }

    @Test
    void theTasksOfAStageTogetherCostWhatTheWholeStageCosts() {
        TpchScanExec lineitem = (TpchScanExec) scan(new TpchCatalog(0.01), "lineitem", 2);
        List<ExecutionPlan> tasks = List.of(lineitem.withParts(0, 2, 6), lineitem.withParts(2, 2, 6), lineitem.withParts(4, 2, 6));
        assertThat((double) tasks.stream().mapToLong(task -> model.cost(task).costBytes()).sum()).isCloseTo(model.cost(lineitem).costBytes(), within(model.cost(lineitem).costBytes() * 0.02));
    }

    private static ExecutionPlan filteredProjection(TpchCatalog catalog) {
        ExecutionPlan lineitem = scan(catalog, "lineitem", 2);
        PhysicalExpr firstLines = new BinaryExpr(BinaryOperator.LT_EQ, column(lineitem, "l_linenumber"), new LiteralExpr(2, QuiverTypes.INT32),
                QuiverTypes.BOOLEAN);
        ExecutionPlan filter = new FilterExec(firstLines, lineitem);
        return new ProjectionExec(List.of(column(lineitem, "l_orderkey"), column(lineitem, "l_quantity")), List.of("l_orderkey", "l_quantity"), filter);
    }
}
