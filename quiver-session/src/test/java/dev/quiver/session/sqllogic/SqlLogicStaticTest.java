package dev.quiver.session.sqllogic;

import dev.quiver.session.QuerySession;

/**
 * The {@code .slt} files on 4 local workers (real Flight servers on 127.0.0.1) with task counts
 * fixed at planning; {@code bytes_per_partition_for_scans} of one byte makes every scan stage run
 * on all 4 workers.
 */
class SqlLogicStaticTest extends SqlLogicTestBase {
    @Override
    RunMode mode() {
        return RunMode.STATIC;
    }

    @Override
    QuerySession.Builder configure(QuerySession.Builder builder) {
        return builder.targetPartitions(2).batchSize(1000).localWorkers(4).set("distributed.bytes_per_partition_for_scans", "1");
    }
}
