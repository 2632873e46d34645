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
 * Quiver on workers started in the benchmark's process, over the same catalog as the single-node
 * session, and how many bytes each query moved between stages.
 */
final class ClusterRuns implements AutoCloseable {
    private final QuerySession session;
    private long lastExchangedBytes = -1;

    private ClusterRuns(QuerySession session) {
        this.session = requireNonNull(session, "session is null");
    }

    static ClusterRuns open(BenchOptions options, BenchOptions.Cluster cluster, Catalog catalog) {
        return new ClusterRuns(QuerySession.builder()
                .catalog(catalog)
                .targetPartitions(options.targetPartitions())
                .memoryLimit(options.memoryLimit())
                .localWorkers(cluster.localWorkers(), cluster.workerMemoryLimit())
                .settings(cluster.settings())
                .build());
    }

    QuerySession session() {
        return session;
    }

    /** Runs TPC-H query {@code query} (text {@code text}); returns its row count. */
    long run(int query, String text) {
        List<String> statements = DuckDbTpch.statements(text);
        for (String statement : statements.subList(0, statements.size() - 1)) {
            session.execute(statement).close();
        }
        long rows;
        try (QueryHandle handle = session.execute(statements.get(statements.size() - 1))) {
            rows = handle.collect().rowCount();
            FinalPlan executed = handle.finalPlan().join();
            lastExchangedBytes = DistributedExplain.exchangedBytes(executed.plan(), executed.taskReports());
        }
        if (TpchQueries.isScript(query)) {
            session.execute("DROP VIEW IF EXISTS revenue").close();
        }
        return rows;
    }

    /** What the last query moved between stages, as EXPLAIN ANALYZE counts it, or -1 before the first. */
    long lastExchangedBytes() {
        return lastExchangedBytes;
    }

    @Override
    public void close() {
        session.close();
    }
}
