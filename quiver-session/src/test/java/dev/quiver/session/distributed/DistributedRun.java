package dev.quiver.session.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.distributed.worker.LocalCluster;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.engine.testing.Eventually;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QueryResult;
import dev.quiver.session.QuerySession;
import dev.quiver.session.tpch.AnswerFile;
import dev.quiver.session.tpch.ResultComparator;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** One distributed statement's result and final plan, and the checks every distributed run must pass. */
record DistributedRun(QueryResult result, FinalPlan finalPlan, List<QueryEvent> events) {
    /**
     * Runs a script ({@code ;}-separated, {@code --} comment lines dropped, as the TPC-H texts are): every statement but the last
     * plainly, the last through its handle, whose final plan is awaited.
     */
    static DistributedRun script(QuerySession session, String script) {
        String code = script.lines().filter(line -> !line.strip().startsWith("--")).collect(Collectors.joining("\n"));
        List<String> statements = Arrays.stream(code.split(";")).map(String::strip).filter(s -> !s.isEmpty()).toList();
        for (String statement : statements.subList(0, statements.size() - 1)) {
            session.execute(statement).close();
        }
        return query(session, statements.get(statements.size() - 1));
    }

    /**
     * TPC-H query {@code query} (its script; the view a script makes is dropped after it), whose
     * result must equal the answer file and whose tasks must all have succeeded.
     */
    static DistributedRun tpch(QuerySession session, int query) {
        DistributedRun run = script(session, TpchQueries.query(query));
        if (TpchQueries.isScript(query)) {
            session.execute("DROP VIEW revenue").close();
        }
        ResultComparator.assertMatches("q" + query, run.result().schema(), run.result().rows(), AnswerFile.parse(TpchQueries.answer(query)).rows());
        assertSucceeded(run.finalPlan());
        return run;
    }

    /** Waits (at most 60 s) until a task of the query runs on {@code worker}. */
    static void awaitRunningOn(QueryHandle handle, WorkerAddress worker) {
        Eventually.awaitUntil(handle::events, events -> events.stream().anyMatch(e -> e instanceof QueryEvent.TaskStateChanged changed
                && changed.worker().equals(worker) && changed.state() == TaskState.RUNNING), Duration.ofSeconds(60));
    }

    static DistributedRun query(QuerySession session, String sql) {
        QueryHandle handle = session.execute(sql);
        QueryResult result = handle.collect();
        FinalPlan finalPlan = awaitFinalPlan(handle);
        return new DistributedRun(result, finalPlan, handle.events());
    }

    /** The final plan, which must complete promptly once the result stream ended. */
    static FinalPlan awaitFinalPlan(QueryHandle handle) {
        try {
            return handle.finalPlan().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("the final plan of " + handle.queryId() + " did not complete", e);
        }
    }

    /** Every dispatched task has exactly one terminal report, and the stages match what was planned. */
    static void assertAllTasksTerminal(FinalPlan plan) {
        for (Stage stage : plan.plan().stages()) {
            if (stage.isHead()) {
                continue;
            }
            assertThat(plan.reportsOf(stage.stageId())).as("reports of stage %d", stage.stageId()).hasSize(stage.taskCount())
                    .allSatisfy(report -> assertThat(report.state().isTerminal()).isTrue());
        }
    }

    /**
     * Once a session's queries ended: its local workers drop every task's state and release its memory
     * (awaited for at most {@code within}), and no task's final report had to be given up on.
     */
    static void assertNothingLeftOnWorkers(QuerySession session, Duration within) {
        LocalCluster cluster = session.localCluster().orElseThrow();
        assertThat(Eventually.await(cluster::activeTasks, 0, within)).as("task state left on the workers").isZero();
        assertThat(Eventually.await(cluster::poolUsedBytes, 0L, within)).as("memory reserved on the workers").isZero();
        assertThat(session.coordinatorMetrics().orElseThrow().metricsFinalizationTimeouts()).isZero();
    }

    /** A successful query: no failure, every task FINISHED or SKIPPED (or CANCELLED, when a LIMIT closed it early). */
    static void assertSucceeded(FinalPlan plan) {
        assertThat(plan.failure()).isEmpty();
        assertAllTasksTerminal(plan);
        assertThat(plan.taskReports()).allSatisfy(r -> assertThat(r.state()).isIn(TaskState.FINISHED, TaskState.SKIPPED, TaskState.CANCELLED));
    }
}
