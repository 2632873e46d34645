package dev.quiver.session.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.protocol.ClusterSecret;
import dev.quiver.distributed.protocol.ClusterSecurity;
import dev.quiver.distributed.protocol.QuiverVersion;
import dev.quiver.distributed.worker.WorkerServer;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.QuerySession;
import dev.quiver.session.SqlPlanCodec;
import dev.quiver.session.tpch.AnswerFile;
import dev.quiver.session.tpch.ResultComparator;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The cluster secret: workers started with it refuse calls without its token, from a coordinator
 * without the secret or with another; with it, control and data calls (a shuffle between workers)
 * go through and TPC-H q1 matches its answer file.
 */
class ClusterSecretTest {
    private static final ClusterSecret SECRET = ClusterSecret.of("a cluster secret of ours, long enough");
    private static final ClusterSecret OTHER = ClusterSecret.of("another cluster's secret, long enough");

    @Test
    void localWorkersWithTheSecretRunQueriesWithShuffles() {
        try (TpchCatalog catalog = TpchCatalog.cached(0.01, 256L << 20);
                QuerySession session = QuerySession.builder().catalog(catalog).localWorkers(2).clusterSecret(SECRET)
                        .set("distributed.bytes_per_partition_for_scans", "256KiB").targetPartitions(2).build()) {
            DistributedRun run = DistributedRun.script(session, TpchQueries.query(1));
            ResultComparator.assertMatches("q1", run.result().schema(), run.result().rows(), AnswerFile.parse(TpchQueries.answer(1)).rows());
            assertThat(run.finalPlan().plan().stages()).hasSizeGreaterThan(2);
            DistributedRun.assertAllTasksTerminal(run.finalPlan());
        }
    }

    @Test
    void aWorkerWithASecretRefusesCoordinatorsWithoutIt() {
        try (TpchCatalog catalog = new TpchCatalog(0.01);
                WorkerServer worker = WorkerServer.builder().version(QuiverVersion.CURRENT).security(ClusterSecurity.NONE.withSecret(SECRET))
                        .codec(SqlPlanCodec.builder().tpchCatalogs(sf -> catalog).build()).start()) {
            for (Optional<ClusterSecret> coordinatorSecret : List.of(Optional.<ClusterSecret>empty(), Optional.of(OTHER))) {
                QuerySession.Builder builder = QuerySession.builder().catalog(catalog).workers(List.of(worker.address()));
                coordinatorSecret.ifPresent(builder::clusterSecret);
                try (QuerySession session = builder.build()) {
                    assertThatThrownBy(() -> session.executeScript("select n_regionkey, count(*) from nation group by 1"))
                            .isInstanceOf(QuiverException.class)
                            .hasMessageContaining("cluster token")
                            .hasMessageContaining(coordinatorSecret.isPresent() ? "wrong" : "without");
                }
            }
            assertThat(worker.activeTasks()).isZero();
            try (QuerySession session = QuerySession.builder().catalog(catalog).workers(List.of(worker.address())).clusterSecret(SECRET).build()) {
                assertThat(session.executeScript("select count(*) from nation").rows()).containsExactly(List.of(25L));
            }
        }
    }

    @Test
    void aShortSecretIsAConfigurationError() {
        assertThatThrownBy(() -> ClusterSecret.of("short"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION));
    }
}
