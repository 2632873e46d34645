package dev.quiver.session.sqllogic;

import dev.quiver.session.QuerySession;

/**
 * The {@code .slt} files on 4 local workers with adaptive task counts (AQE,
 * {@code distributed.dynamic_task_count=true}); small byte budgets make stages fan out and
 * samples partial even on these small tables.
 */
class SqlLogicAdaptiveTest extends SqlLogicTestBase {
    @Override
    RunMode mode() {
        return RunMode.ADAPTIVE;
    }

    @Override
    QuerySession.Builder configure(QuerySession.Builder builder) {
        return builder.targetPartitions(2).batchSize(1000).localWorkers(4)
                .set("distributed.dynamic_task_count", "true")
                .set("distributed.bytes_per_partition_for_scans", "1")
                .set("distributed.dynamic_bytes_per_partition", "64KiB")
                .set("distributed.sample_bytes_per_partition", "16KiB");
    }
}
