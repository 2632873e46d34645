package dev.quiver.distributed.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.execution.PlanDisplay;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** {@link StageInputExec} survives the plan codec with its counts, keys, statistics and binding. */
class DistributedCodecsTest {
    private static final Schema SCHEMA = new Schema(List.of(QuiverTypes.field("k", QuiverTypes.INT64, false),
            QuiverTypes.field("price", QuiverTypes.decimal(15, 2), true)));
    private static final Statistics STATISTICS = new Statistics(Estimate.inexact(1200), Estimate.absent(), List.of(
            new ColumnStatistics(Estimate.exact(0), Estimate.inexact(40), Optional.of(1L), Optional.of(99L), true),
            new ColumnStatistics(Estimate.inexact(3), Estimate.absent(), Optional.of(new BigDecimal("0.50")), Optional.empty(), false)));

    private final PlanCodec codec = PlanCodec.create();

    @Test
    void unboundShuffleInputRoundTrips() {
        StageInputExec input = new StageInputExec(3, BoundaryKind.SHUFFLE, SCHEMA, List.of(new ColumnExpr(0, "k", QuiverTypes.INT64, false)), 4, 2, 3, 5,
                STATISTICS, Optional.empty());
        StageInputExec decoded = roundTrip(input);
        assertThat(List.of(decoded.producerStageId(), decoded.producerTasks(), decoded.producerPartitions(), decoded.consumerTasks(),
                decoded.partitionsPerConsumerTask())).containsExactly(3, 4, 2, 3, 5);
        assertThat(decoded.keys()).isEqualTo(input.keys());
        assertThat(decoded.statistics()).isEqualTo(STATISTICS);
        assertThat(decoded.partitionStatistics(OptionalInt.empty())).isEqualTo(STATISTICS);
        assertThat(decoded.binding()).isEmpty();
        assertThat(decoded.producerHead()).isEqualTo(input.producerHead());
    }

    @Test
    void boundCoalesceInputUnderAnOperatorRoundTripsWithItsWorkers() {
        StageInputExec input = new StageInputExec(1, BoundaryKind.COALESCE, SCHEMA, List.of(), 2, 3, 1, 6, Statistics.unknown(SCHEMA), Optional.empty())
                .bind("q7", 0, List.of(new WorkerAddress("10.0.0.1", 7001), new WorkerAddress("10.0.0.2", 7002)));
        CoalescePartitionsExec root = new CoalescePartitionsExec(input);
        CoalescePartitionsExec decoded = (CoalescePartitionsExec) codec.decode(codec.encode(root));
        assertThat(PlanDisplay.indent(decoded)).isEqualTo(PlanDisplay.indent(root));
        StageInputExec decodedInput = (StageInputExec) decoded.input();
        assertThat(decodedInput.binding()).isEqualTo(input.binding());
        assertThat(decodedInput.sourcesOf(4)).isEqualTo(input.sourcesOf(4));
    }

    private StageInputExec roundTrip(StageInputExec input) {
        byte[] bytes = codec.encode(input);
        StageInputExec decoded = (StageInputExec) codec.decode(bytes);
        assertThat(decoded.displayLine()).isEqualTo(input.displayLine());
        assertThat(decoded.schema()).isEqualTo(input.schema());
        assertThat(codec.encode(decoded)).isEqualTo(bytes);
        return decoded;
    }
}
