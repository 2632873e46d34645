package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.operator.window.WindowExec;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Window functions on four local workers (real Flight servers), with static task counts and with
 * AQE, against DuckDB over the same rows. Scans fan out to every worker (one byte per scan
 * partition), so a window stage only gets whole window partitions when the planner shuffles on
 * the PARTITION BY keys — which the final plan must show: the WindowExec's stage reads a shuffle
 * (and, with static task counts, runs several tasks), or, without PARTITION BY, runs as one task.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DistributedWindowTest {
    private MemoryCatalog catalog;
    private DuckDbOracle duckdb;
    private QuerySession session;

    @BeforeAll
    void start() throws SQLException {
        catalog = WindowTables.catalog();
        duckdb = new DuckDbOracle(catalog);
        session = QuerySession.builder().catalog(catalog).targetPartitions(2).localWorkers(4)
                .set(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS, 1L).set(DistributedSettings.DYNAMIC_BYTES_PER_PARTITION, 4L << 10)
                .set(DistributedSettings.SAMPLE_BYTES_PER_PARTITION, 1L << 10).batchSize(64).build();
    }

    @AfterAll
    void stop() throws SQLException {
        try (DuckDbOracle closedLast = duckdb; QuerySession closedFirst = session) {
            assertThat(session.memoryPool().used()).isZero();
        }
    }

    @ParameterizedTest(name = "{1} {0}")
    @CsvSource(delimiter = '|', value = {
        "select id, row_number() over (partition by g order by id), sum(v) over (partition by g order by o) from w | static | true",
        "select id, row_number() over (partition by g order by id), sum(v) over (partition by g order by o) from w | adaptive | true",
        "select id, rank() over (partition by h order by v desc), lag(v, 2) over (partition by h order by id) from w | static | true",
        "select id, rank() over (partition by h order by v desc), lag(v, 2) over (partition by h order by id) from w | adaptive | true",
        "select id, count(*) over (partition by g, h order by o range between 2 preceding and 2 following) from w | static | true",
        "select id, count(*) over (partition by g, h order by o range between 2 preceding and 2 following) from w | adaptive | true",
        "select id, sum(v) over (partition by g order by id rows between 2 preceding and 2 following exclude current row) from w | static | true",
        "select id, first_value(v) over (partition by g order by id), ntile(3) over (partition by g order by id) from w | adaptive | true",
        "select id, count(distinct h) over (partition by g), max(d) over (partition by g order by d groups between 1 preceding and current row) from w | static | true",
        "select id, sum(v) over (order by id), row_number() over (order by v, id) from w | static | false",
        "select id, sum(v) over (order by id), row_number() over (order by v, id) from w | adaptive | false",
        "select id, count(*) over () from w | adaptive | false",
        "select id from w qualify row_number() over (partition by g order by v desc, id) <= 2 | adaptive | true",
        "select g, h, count(*), sum(count(*)) over (partition by g) from w group by g, h | static | true",
        "select g, h, count(*), sum(count(*)) over (partition by g) from w group by g, h | adaptive | true",
    })
    void matchesDuckDbAndShufflesOnThePartitionKeys(String sql, String mode, boolean partitioned) throws Exception {
        session.execute("SET distributed.dynamic_task_count = " + mode.equals("adaptive")).close();
        FinalPlan plan;
        List<List<Object>> actual;
        try (QueryHandle handle = session.execute(sql)) {
            actual = DuckDbOracle.normalize(handle.collect().rows());
            plan = handle.finalPlan().get(30, TimeUnit.SECONDS);
        }
        assertThat(sorted(actual)).as(sql).isEqualTo(sorted(duckdb.query(sql)));
        assertThat(plan.failure()).isEmpty();
        assertThat(plan.taskReports()).allSatisfy(r -> assertThat(r.state()).isIn(TaskState.FINISHED, TaskState.SKIPPED));
        List<Stage> windowStages = plan.plan().stages().stream().filter(stage -> find(stage.plan(), WindowExec.class).isPresent()).toList();
        assertThat(windowStages).as("stages with a WindowExec").isNotEmpty();
        for (Stage stage : windowStages) {
            WindowExec window = find(stage.plan(), WindowExec.class).orElseThrow();
            if (partitioned) {
                assertThat(window.partitionKeys()).isNotEmpty();
                assertThat(stageInputs(stage.plan())).as("inputs of the window stage %d", stage.stageId())
                        .anySatisfy(input -> assertThat(input.kind()).isEqualTo(BoundaryKind.SHUFFLE));
                // sized like any consumer stage: static planning fans it out; AQE sizes it from its cost, never forced to one task
                if (mode.equals("static")) {
                    assertThat(stage.taskCount()).as("tasks of window stage %d (%s)", stage.stageId(), stage.taskCountHint()).isGreaterThan(1);
                } else {
                    assertThat(stage.taskCountHint()).as("window stage %d", stage.stageId()).isInstanceOf(TaskCountHint.Desired.class);
                }
            } else {
                assertThat(stage.taskCount()).as("tasks of window stage %d", stage.stageId()).isEqualTo(1);
            }
        }
    }

    private static <T> Optional<T> find(ExecutionPlan plan, Class<T> type) {
        if (type.isInstance(plan)) {
            return Optional.of(type.cast(plan));
        }
        return plan.children().stream().map(child -> find(child, type)).flatMap(Optional::stream).findFirst();
    }

    private static List<StageInputExec> stageInputs(ExecutionPlan plan) {
        List<StageInputExec> inputs = new ArrayList<>();
        if (plan instanceof StageInputExec input) {
            inputs.add(input);
        }
        plan.children().forEach(child -> inputs.addAll(stageInputs(child)));
        return inputs;
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Objects::toString));
        return copy;
    }
}
