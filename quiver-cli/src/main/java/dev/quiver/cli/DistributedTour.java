package dev.quiver.cli;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.explain.DistributedExplain;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QueryResult;
import dev.quiver.session.QuerySession;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The demo's distributed chapter: one tour query again, on a cluster of workers started in this
 * process (real Flight servers on 127.0.0.1), with its stages, per-task metrics and terminal
 * states, and a check that the rows equal the single-node run's.
 */
final class DistributedTour {
    static final int WORKERS = 4;
    static final long WORKER_MEMORY = 256L << 20;
    /** Small enough that the demo's small tables still spread over every worker. */
    static final long SCAN_BYTES_PER_PARTITION = 1L << 20;
    private static final int PARTITIONS = 2;

    private DistributedTour() {}

    /** Runs {@code query} distributed and compares it with {@code singleNode}; returns the summary line. */
    static String run(TpchCatalog catalog, long memoryLimit, DemoCommand.TourQuery query, QueryResult singleNode, PrintWriter out) {
        out.printf(Locale.ROOT, "== Distributed: %s again, on %d workers in this process (each a Flight server on 127.0.0.1 with a %s pool)%n",
                query.name(), WORKERS, ByteSize.formatBytes(WORKER_MEMORY));
        out.printf(Locale.ROOT, "   (%d partitions per task; scans split every %s so that this small data spreads over all workers)%n",
                PARTITIONS, DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS.format(SCAN_BYTES_PER_PARTITION));
        out.flush();
        try (QuerySession session = QuerySession.builder()
                .catalog(catalog)
                .memoryLimit(memoryLimit)
                .targetPartitions(PARTITIONS)
                .localWorkers(WORKERS, WORKER_MEMORY)
                .set(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS, SCAN_BYTES_PER_PARTITION)
                .build()) {
            long start = System.nanoTime();
            QueryResult result;
            FinalPlan executed;
            try (QueryHandle handle = session.execute(query.sql())) {
                result = handle.collect();
                executed = handle.finalPlan().join();
            }
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            boolean equal = result.rows().equals(singleNode.rows());
            out.println("Stages as they ran (EXPLAIN ANALYZE shows the same):");
            for (String line : DistributedExplain.text(executed).split("\r?\n")) {
                out.println("  " + line);
            }
            out.printf(Locale.ROOT, "%d rows in %.3f s, %s the single-node result; %d stages, %d worker tasks (%d finished, %d skipped)%n%n",
                    result.rowCount(), elapsed.toNanos() / 1e9, equal ? "equal to" : "DIFFERENT FROM", executed.plan().stages().size(),
                    executed.taskReports().size(), executed.count(TaskState.FINISHED), executed.count(TaskState.SKIPPED));
            out.flush();
            if (!equal) {
                throw new IllegalStateException(query.name() + " gave different rows on " + WORKERS + " workers than on one node");
            }
            return DemoCommand.summaryLine(query.name(), elapsed.toNanos() / 1e9, result.rowCount(), String.format(Locale.ROOT,
                    "the same, on %d workers (%d stages, %d tasks)", WORKERS, executed.plan().stages().size(), executed.taskReports().size()));
        }
    }

    /** The tour query the chapter repeats: the three-way join. */
    static DemoCommand.TourQuery query(List<DemoCommand.TourQuery> tour) {
        return tour.stream().filter(q -> q.number() == 3).findFirst().orElseThrow();
    }
}
