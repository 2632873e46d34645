package dev.quiver.session.sqllogic;

import dev.quiver.session.QuerySession;

/** The {@code .slt} files on one node: 3 partitions per plan, small batches. */
class SqlLogicSingleNodeTest extends SqlLogicTestBase {
    @Override
    RunMode mode() {
        return RunMode.SINGLE;
    }

    @Override
    QuerySession.Builder configure(QuerySession.Builder builder) {
        return builder.targetPartitions(3).batchSize(1000);
    }
}
