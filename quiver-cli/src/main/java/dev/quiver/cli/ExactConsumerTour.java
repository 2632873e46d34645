package dev.quiver.cli;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.handler.AggregateMemorySizingHandler;
import dev.quiver.distributed.handler.AggregateSizing;
import dev.quiver.distributed.protocol.OperatorMetricsSnapshot;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.distributed.worker.WorkerServer;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QueryResult;
import dev.quiver.session.QuerySession;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The demo's last chapter (issue 6, DESIGN §6): a high-cardinality GROUP BY over TPC-H lineitem
 * keys on local workers with a per-worker memory limit, under AQE at its default
 * {@code distributed.dynamic_bytes_per_partition}. AQE sizes the GROUP BY's stage by bytes: 16 MiB
 * of cost per partition, 8 partitions per task (as on 8-core workers), so 1.2 million groups go to
 * 3 tasks on 8 workers, and each task's hash tables exceed its worker's memory: the query fails
 * with EXCEEDED_MEMORY_LIMIT. With the {@link AggregateMemorySizingHandler} registered, the consumer
 * gets an exact task count sized from the groups and the workers' memory, and the query completes
 * with the single-node result. Should AQE's sample of the producer be cut short (a lower bound),
 * its advisory count only gets smaller, and the handler ignores lower-bound samples: the chapter
 * fails and completes the same way every time (docs/exact-consumer-tasks.md). The distributed
 * runs disable spilling: with it the advisory count would complete too, spilling its tables.
 */
final class ExactConsumerTour {
    static final int WORKERS = 8;
    /** The chapter runs at this multiple of the demo's scale factor, and at least at {@link #MIN_SCALE_FACTOR}. */
    static final int SCALE = 2;
    /** 1.2 million groups: AQE's advisory count (3 tasks) then stays well below the 8 workers. */
    static final double MIN_SCALE_FACTOR = 0.2;
    /**
     * The per-worker memory limit at the chapter's SF 0.2, scaled with its scale factor; the launcher
     * ({@code ./quiver}) sizes the JVM for it: well below the 38 MiB of hash tables each of AQE's 3
     * tasks needs (a task's partitions do not always peak together: the CI-sized query of
     * HighCardinalityGroupByTest completed 1 run in 8 at 32 MiB), above what the handler's count
     * needs (~18 MiB at the least).
     */
    static final long WORKER_MEMORY_AT_SF_02 = 24L << 20;
    /** Partitions per task: AQE divides its partition count by this to get tasks. */
    static final int PARTITIONS = 8;
    private static final long CACHE_BYTES = 512L << 20;
    private static final long FINAL_PLAN_WAIT_SECONDS = 30;
    static final String QUERY = "SELECT count(*) AS groups, sum(c) AS line_items, sum(q) AS quantity, sum(s) AS suppkeys,"
            + " sum(l_orderkey + l_partkey) AS key_sum FROM (SELECT l_orderkey, l_partkey, count(*) AS c, sum(l_quantity) AS q,"
            + " max(l_suppkey) AS s FROM lineitem GROUP BY l_orderkey, l_partkey)";

    /** What one distributed run did. */
    record Outcome(Optional<QueryResult> result, Optional<QuiverException> error, double seconds, int aggregateTasks, long peakWorkerBytes,
            long aggregatePeakWorkerBytes, Optional<AggregateSizing> sizing) {}

    private ExactConsumerTour() {}

    static double chapterScaleFactor(double demoScaleFactor) {
        return Math.max(MIN_SCALE_FACTOR, BigDecimal.valueOf(demoScaleFactor).multiply(BigDecimal.valueOf(SCALE)).doubleValue());
    }

    static long workerMemory(double chapterScaleFactor) {
        return (long) (WORKER_MEMORY_AT_SF_02 * chapterScaleFactor / MIN_SCALE_FACTOR) >> 20 << 20;
    }

    /** Runs the chapter at {@link #chapterScaleFactor} of the demo's; returns the summary line. */
    static String run(double demoScaleFactor, long memoryLimit, PrintWriter out) {
        double scaleFactor = chapterScaleFactor(demoScaleFactor);
        long workerMemory = workerMemory(scaleFactor);
        out.printf(Locale.ROOT, "== Exact consumer tasks: a high-cardinality GROUP BY on %d workers of %s each (TPC-H SF %s lineitem)%n",
                WORKERS, ByteSize.formatBytes(workerMemory), DemoCommand.formatScaleFactor(scaleFactor));
        out.println("   " + QUERY);
        out.printf(Locale.ROOT, "   AQE on (distributed.dynamic_task_count=true, dynamic_bytes_per_partition=16 MiB), %d partitions per task;"
                + " spill_enabled=false (with spilling the advisory count completes too)%n", PARTITIONS);
        out.flush();
        try (TpchCatalog catalog = TpchCatalog.cached(scaleFactor, CACHE_BYTES)) {
            long start = System.nanoTime();
            QueryResult singleNode;
            try (QuerySession session = QuerySession.builder().catalog(catalog).memoryLimit(memoryLimit).targetPartitions(PARTITIONS).build()) {
                singleNode = session.executeScript(QUERY);
            }
            double singleSeconds = (System.nanoTime() - start) / 1e9;
            out.printf(Locale.ROOT, "single node:  %s groups in %.3f s (with data generation)%n", singleNode.rows().get(0).get(0), singleSeconds);

            Outcome advisory = runDistributed(catalog, memoryLimit, workerMemory, false);
            out.printf(Locale.ROOT, "advisory:     AQE sized the GROUP BY to %d task%s (%s the %d workers): %s after %.3f s; peak %s on a worker%n",
                    advisory.aggregateTasks(), advisory.aggregateTasks() == 1 ? "" : "s", advisory.aggregateTasks() < WORKERS ? "fewer than" : "as many as", WORKERS,
                    advisory.error().map(e -> "FAILED, " + e.errorCode() + ": " + e.getMessage()).orElse("completed"), advisory.seconds(),
                    ByteSize.formatBytes(advisory.peakWorkerBytes()));

            Outcome exact = runDistributed(catalog, memoryLimit, workerMemory, true);
            AggregateSizing sizing = exact.sizing().orElseThrow(() -> new IllegalStateException("the handler sized no GROUP BY"));
            out.printf(Locale.ROOT, "exact (--stage-handler %s): n=%d tasks for the GROUP BY%n", AggregateMemorySizingHandler.class.getName(),
                    exact.aggregateTasks());
            out.println("   the handler: " + sizing.summary());
            boolean equal = exact.result().isPresent() && exact.result().get().rows().equals(singleNode.rows());
            out.printf(Locale.ROOT, "   %s after %.3f s; memory per worker: estimated %s (GROUP BY state %s for %s × G groups, plus producer batches),"
                            + " measured peak %s (GROUP BY state %s); result %s the single-node result%n",
                    exact.error().map(e -> "FAILED, " + e.errorCode() + ": " + e.getMessage()).orElse("completed"), exact.seconds(),
                    ByteSize.formatBytes(sizing.workerBytes()), ByteSize.formatBytes(sizing.taskBytes() * ((sizing.consumerTasks() + WORKERS - 1) / WORKERS)),
                    AggregateMemorySizingHandler.DEFAULT_SAFETY_FACTOR,
                    ByteSize.formatBytes(exact.peakWorkerBytes()), ByteSize.formatBytes(exact.aggregatePeakWorkerBytes()), equal ? "equal to" : "DIFFERENT FROM");
            out.println();
            out.flush();
            if (!equal) {
                throw new IllegalStateException("the exact-consumer GROUP BY did not give the single-node result", exact.error().orElse(null));
            }
            return DemoCommand.summaryLine("Agg", exact.seconds(), 1, String.format(Locale.ROOT, "GROUP BY of %s groups on %d workers: advisory %d task%s %s,"
                    + " exact n=%d", singleNode.rows().get(0).get(0), WORKERS, advisory.aggregateTasks(), advisory.aggregateTasks() == 1 ? "" : "s",
                    advisory.error().isPresent() ? "failed (" + ErrorCode.EXCEEDED_MEMORY_LIMIT + ")" : "completed", exact.aggregateTasks()));
        }
    }

    /**
     * The measurement of issue 6: for advisory and exact, the smallest per-worker memory limit (to
     * 1 MiB) at which the chapter's query completes, found by bisection, with the peak per worker
     * and the wall time of the run at that limit.
     */
    static void measure(double demoScaleFactor, long memoryLimit, PrintWriter out) {
        double scaleFactor = chapterScaleFactor(demoScaleFactor);
        out.printf(Locale.ROOT, "Smallest per-worker memory limit at which the GROUP BY completes, %d workers, TPC-H SF %s, AQE on:%n", WORKERS,
                DemoCommand.formatScaleFactor(scaleFactor));
        out.flush();
        try (TpchCatalog catalog = TpchCatalog.cached(scaleFactor, CACHE_BYTES)) {
            long[] smallest = new long[2];
            for (int mode = 0; mode < 2; mode++) {
                boolean exact = mode == 1;
                long low = 1;
                long high = 64;
                // the run that completed at the smallest limit so far: near the edge a run may complete once and fail the next time
                Outcome at;
                while ((at = runDistributed(catalog, memoryLimit, high << 20, exact)).error().isPresent()) {
                    low = high;
                    high *= 2;
                }
                while (high - low > 1) {
                    long middle = (low + high) / 2;
                    Outcome run = runDistributed(catalog, memoryLimit, middle << 20, exact);
                    if (run.error().isPresent()) {
                        low = middle;
                    } else {
                        high = middle;
                        at = run;
                    }
                }
                smallest[mode] = high;
                out.printf(Locale.ROOT, "  %-8s %4d MiB: %d tasks for the GROUP BY, peak %s on a worker (GROUP BY state %s), %.3f s%s%n",
                        exact ? "exact" : "advisory", high, at.aggregateTasks(), ByteSize.formatBytes(at.peakWorkerBytes()),
                        ByteSize.formatBytes(at.aggregatePeakWorkerBytes()), at.seconds(),
                        at.sizing().map(sizing -> "; the handler: " + sizing.summary()).orElse(""));
                out.flush();
            }
            out.printf(Locale.ROOT, "  exact / advisory = %.2f%n", (double) smallest[1] / smallest[0]);
        }
    }

    /** One run of the query on a fresh local cluster (so that the workers' pool peaks are this query's). */
    static Outcome runDistributed(TpchCatalog catalog, long memoryLimit, long workerMemory, boolean exact) {
        List<QueryEvent> heard = new CopyOnWriteArrayList<>();
        List<AggregateSizing> sizings = new CopyOnWriteArrayList<>();
        QuerySession.Builder builder = QuerySession.builder().catalog(catalog).memoryLimit(memoryLimit).targetPartitions(PARTITIONS)
                .localWorkers(WORKERS, workerMemory).set(DistributedSettings.DYNAMIC_TASK_COUNT, true).queryEventListener(heard::add)
                // the chapter sizes the tasks so that their tables fit; spilling would hide the advisory count's failure
                .set(EngineSettings.SPILL_ENABLED, false);
        if (exact) {
            builder.stageEventHandler(new AggregateMemorySizingHandler(AggregateMemorySizingHandler.DEFAULT_SAFETY_FACTOR, sizings::add));
        }
        try (QuerySession session = builder.build()) {
            long start = System.nanoTime();
            Optional<QueryResult> result = Optional.empty();
            Optional<QuiverException> error = Optional.empty();
            long aggregatePeak = 0;
            try (QueryHandle handle = session.execute(QUERY)) {
                result = Optional.of(handle.collect());
                aggregatePeak = aggregatePeakPerWorker(handle.finalPlan().get(FINAL_PLAN_WAIT_SECONDS, TimeUnit.SECONDS), aggregateStage(heard));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the final plan", e);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("the final plan of the GROUP BY did not complete", e);
            } catch (QuiverException e) {
                // the task's own failure, or the head's read of its output when that came first (it carries the task's code)
                if (e.errorCode() != ErrorCode.EXCEEDED_MEMORY_LIMIT) {
                    throw e;
                }
                error = Optional.of(e);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long peak = session.localCluster().orElseThrow().workers().stream().map(WorkerServer::memoryPool).mapToLong(pool -> pool.peak()).max()
                    .orElse(0);
            return new Outcome(result, error, seconds, aggregateTasks(heard), peak, aggregatePeak, sizings.isEmpty() ? Optional.empty()
                    : Optional.of(sizings.get(sizings.size() - 1)));
        }
    }

    /** The GROUP BY's stage: the first stage that reads another one, not the head. */
    private static int aggregateStage(List<QueryEvent> heard) {
        return heard.stream().filter(event -> event instanceof QueryEvent.StageClosed closed && !closed.inputStageIds().isEmpty())
                .mapToInt(event -> ((QueryEvent.StageClosed) event).stageId()).findFirst().orElse(-1);
    }

    /** The task count the GROUP BY's stage was sized with (the last sizing: a sampled event may change it). */
    private static int aggregateTasks(List<QueryEvent> heard) {
        int stage = aggregateStage(heard);
        return heard.stream().filter(event -> event instanceof QueryEvent.StageSized sized && sized.stageId() == stage)
                .mapToInt(event -> ((QueryEvent.StageSized) event).taskCount()).reduce((a, b) -> b).orElse(0);
    }

    /**
     * The most GROUP BY state one worker held: per worker, the sum over its tasks of the stage's
     * largest hash-aggregate peak (the grouped FINAL aggregate's tables, which the handler sizes).
     */
    private static long aggregatePeakPerWorker(FinalPlan finalPlan, int stageId) {
        Map<WorkerAddress, Long> perWorker = new HashMap<>();
        for (TaskReport report : finalPlan.reportsOf(stageId)) {
            long peak = report.metrics().stream().filter(node -> node.name().equals("HashAggregateExec")).mapToLong(OperatorMetricsSnapshot::summedPeakMemoryBytes)
                    .max().orElse(0);
            perWorker.merge(report.worker(), peak, Long::sum);
        }
        return perWorker.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }
}
