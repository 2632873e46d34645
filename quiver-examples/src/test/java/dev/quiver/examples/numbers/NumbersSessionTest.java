package dev.quiver.examples.numbers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.PlanDisplay;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QuerySession;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A custom source through {@link QuerySession.Builder}: its table, its estimator and its codec make
 * its stage run as the estimator asks on real workers; without the estimator it runs as one task, and
 * without the codec it cannot leave the coordinator; both failures say where to register the missing
 * piece.
 */
class NumbersSessionTest {
    private static final Catalog EMPTY = new Catalog() {
        @Override
        public Optional<TableSource> table(String name) {
            return Optional.empty();
        }

        @Override
        public Set<String> tableNames() {
            return Set.of();
        }
    };
    private static final String QUERY = "SELECT bucket, count(*) AS numbers, sum(n) AS total FROM small GROUP BY bucket ORDER BY bucket";
    private static final NumbersTable SMALL = new NumbersTable("small", 400_000, 10);

    private static QuerySession.Builder distributed() {
        return QuerySession.builder().catalog(EMPTY).targetPartitions(2).localWorkers(4).table(SMALL);
    }

    @Test
    void theBuilderTakesTheTableItsEstimatorAndItsCodecToTheWorkers() throws Exception {
        List<List<Object>> expected;
        try (QuerySession single = QuerySession.builder().catalog(EMPTY).targetPartitions(2).table(SMALL).build()) {
            expected = single.executeScript(QUERY).rows();
        }
        assertThat(expected).hasSize(10).contains(List.of(3L, 40_000L, 40_000L * 3 + 10L * 40_000 * 39_999 / 2));
        try (QuerySession session = distributed().taskEstimator(new NumbersEstimator(100_000)).planNodeCodec(NumbersScanExec.CODEC).build()) {
            FinalPlan done = run(session, expected);
            Stage scan = scanStage(done);
            assertThat(scan.taskCount()).isEqualTo(4);
            assertThat(scan.taskCountHint()).isInstanceOf(TaskCountHint.Desired.class);
            assertThat(scan.taskCountHint().origin()).contains("NumbersEstimator: 400000 numbers at 100000 per task");
            // task t of 4 reads the t-th quarter of the range
            assertThat(scan.taskPlans()).extracting(PlanDisplay::indent).anySatisfy(plan -> assertThat(plan).contains("[100000, 200000)"));
        }
    }

    @Test
    void withoutItsEstimatorTheStageRunsAsOneTaskAndThePlanSaysHowToRegisterOne() throws Exception {
        try (QuerySession session = distributed().planNodeCodec(NumbersScanExec.CODEC).build()) {
            FinalPlan done = run(session, null);
            Stage scan = scanStage(done);
            assertThat(scan.taskCount()).isEqualTo(1);
            assertThat(scan.taskCountHint().origin()).contains("NumbersScanExec has no TaskEstimator")
                    .contains("QuerySession.Builder.taskEstimator or a QuiverPlugin");
        }
    }

    @Test
    void withoutItsCodecTheErrorSaysWhereToRegisterIt() {
        try (QuerySession session = distributed().taskEstimator(new NumbersEstimator(100_000)).build()) {
            assertThatThrownBy(() -> session.executeScript(QUERY)).isInstanceOfSatisfying(QuiverException.class, e -> {
                assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED);
                assertThat(e.getMessage()).contains("NumbersScanExec").contains("QuerySession.Builder.planNodeCodec or a QuiverPlugin");
            });
            // the session stays usable
            assertThat(session.executeScript("SELECT 1 + 1 AS two").rows()).containsExactly(List.of(2));
        }
    }

    @Test
    void aPluginContributesAllOfIt() throws Exception {
        try (QuerySession session = QuerySession.builder().catalog(EMPTY).targetPartitions(2).localWorkers(4).plugin(new NumbersPlugin()).build()) {
            QueryHandle handle = session.execute("SELECT count(*), sum(n) FROM numbers");
            assertThat(handle.collect().rows()).containsExactly(List.of(NumbersPlugin.ROWS, NumbersPlugin.ROWS * (NumbersPlugin.ROWS - 1) / 2));
            assertThat(scanStage(handle.finalPlan().get(60, TimeUnit.SECONDS)).taskCount()).isEqualTo(4);
        }
    }

    /** Runs {@link #QUERY}; checks its rows against {@code expected} when given; returns the final plan. */
    private static FinalPlan run(QuerySession session, List<List<Object>> expected) throws Exception {
        try (QueryHandle handle = session.execute(QUERY)) {
            List<List<Object>> rows = handle.collect().rows();
            if (expected != null) {
                assertThat(rows).isEqualTo(expected);
            }
            FinalPlan done = handle.finalPlan().get(60, TimeUnit.SECONDS);
            assertThat(done.failure()).isEmpty();
            return done;
        }
    }

    private static Stage scanStage(FinalPlan done) {
        return done.plan().stages().stream().filter(stage -> PlanDisplay.indent(stage.plan()).contains("NumbersScanExec")).findFirst().orElseThrow();
    }
}
