package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.worker.LocalCluster;
import java.util.List;

/**
 * One catalog queried three ways: on a single node, and on 4 local workers (real Flight servers on
 * 127.0.0.1) with static and with adaptive task counts. The cluster's budgets are tiny, so that
 * even a table of ten rows is split into several tasks and every stage boundary is crossed.
 */
final class ExecutionModes implements AutoCloseable {
    enum Mode { SINGLE_NODE, STATIC, ADAPTIVE }

    private final QuerySession single;
    private final QuerySession cluster;

    ExecutionModes(MemoryCatalog catalog) {
        single = QuerySession.builder().catalog(catalog).targetPartitions(3).batchSize(3).build();
        cluster = QuerySession.builder().catalog(catalog).targetPartitions(2).batchSize(3).localWorkers(4)
                .set(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS, 1L).set(DistributedSettings.DYNAMIC_BYTES_PER_PARTITION, 1L)
                .set(DistributedSettings.SAMPLE_BYTES_PER_PARTITION, 64L).build();
    }

    /** The result of {@code sql} (one statement) in {@code mode}. */
    QueryResult run(Mode mode, String sql) {
        if (mode == Mode.SINGLE_NODE) {
            return single.executeScript(sql);
        }
        cluster.executeScript("SET distributed.dynamic_task_count = " + (mode == Mode.ADAPTIVE));
        return cluster.executeScript(sql);
    }

    /** No memory is left reserved, on the coordinator or on any worker, and no task state on the workers. */
    void assertNothingLeft() {
        assertThat(single.memoryPool().used()).isZero();
        assertThat(cluster.memoryPool().used()).isZero();
        LocalCluster workers = cluster.localCluster().orElseThrow();
        long deadline = System.nanoTime() + 5_000_000_000L;
        while ((workers.activeTasks() != 0 || workers.poolUsedBytes() != 0) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20); // workers drop a task's state just after its final report
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        assertThat(workers.activeTasks()).as("task state left on the workers").isZero();
        assertThat(workers.poolUsedBytes()).as("memory reserved on the workers").isZero();
    }

    List<QuerySession> sessions() {
        return List.of(single, cluster);
    }

    @Override
    public void close() {
        try (QuerySession closedLast = single) {
            cluster.close();
        }
    }
}
