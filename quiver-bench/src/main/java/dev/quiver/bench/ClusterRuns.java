package dev.quiver.bench;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.explain.DistributedExplain;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QuerySession;
import java.util.List;

/**
 * Quiver on workers, started in the benchmark's process or running elsewhere, over the benchmark's catalog: runs the
 * TPC-H texts and keeps the last query's final plan (how many bytes it moved between stages, the
 * task counts AQE chose).
 */
final class ClusterRuns implements AutoCloseable {
    private final QuerySession session;
    private FinalPlan lastFinalPlan;

    private ClusterRuns(QuerySession session) {
        this.session = requireNonNull(session, "session is null");
    }

    static ClusterRuns open(BenchOptions options, BenchOptions.Cluster cluster, Catalog catalog) {
        QuerySession.Builder builder = QuerySession.builder()
                .catalog(catalog)
                .targetPartitions(options.targetPartitions())
                .memoryLimit(options.memoryLimit())
                .settings(options.settings());
        if (cluster.remoteWorkers().isEmpty()) {
            builder.localWorkers(cluster.localWorkers(), cluster.workerMemoryLimit());
        } else {
            builder.workers(cluster.remoteWorkers());
        }
        return new ClusterRuns(builder.build());
    }

    QuerySession session() {
        return session;
    }

    /** Runs TPC-H query {@code query} (text {@code text}); returns its row count. */
    long run(int query, String text) {
        try {
            List<String> statements = DuckDbTpch.statements(text);
            for (String statement : statements.subList(0, statements.size() - 1)) {
                session.execute(statement).close();
            }
            try (QueryHandle handle = session.execute(statements.get(statements.size() - 1))) {
                long rows = handle.collect().rowCount();
                lastFinalPlan = handle.finalPlan().join();
                return rows;
            }
        } finally {
            if (TpchQueries.isScript(query)) {
                session.execute("DROP VIEW IF EXISTS revenue").close();
            }
        }
    }

    /** The final plan of the last query that completed, or null before the first. */
    FinalPlan lastFinalPlan() {
        return lastFinalPlan;
    }

    /** What the last query moved between stages, as EXPLAIN ANALYZE counts it, or -1 before the first. */
    long lastExchangedBytes() {
        return lastFinalPlan == null ? -1 : DistributedExplain.exchangedBytes(lastFinalPlan.plan(), lastFinalPlan.taskReports());
    }

    @Override
    public void close() {
        session.close();
    }
}
