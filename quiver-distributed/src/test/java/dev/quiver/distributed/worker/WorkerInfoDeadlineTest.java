package dev.quiver.distributed.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.Coordinator;
import dev.quiver.distributed.coordinator.CoordinatorConfig;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.distributed.protocol.WorkerInfo;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The worker-info call that starts every distributed query, against real Flight servers on
 * 127.0.0.1: a worker that answers late is asked again, one slower than the deadline fails naming
 * itself, the deadline and the setting that raises it, and one that is gone fails soon rather
 * than at the deadline. "Late" is a {@link HoldingInfoProxy} in front of a real worker holding
 * calls until the caller gives up, so no outcome depends on the machine's speed.
 */
class WorkerInfoDeadlineTest {
    private static final String SETTING = DistributedSettings.WORKER_INFO_TIMEOUT_MS.name();

    @Test
    void aWorkerThatAnswersLateIsAskedAgainAndItsAnswerIsTheWorkers() {
        try (TestCluster cluster = new TestCluster(1);
                HoldingInfoProxy late = new HoldingInfoProxy(cluster.worker(0).address(), 1)) {
            WorkerInfo info = cluster.connections.workerClient(late.address()).info(Duration.ofSeconds(60));

            assertThat(info).isEqualTo(new WorkerInfo(cluster.worker(0).address(), TestCluster.VERSION, 2, 256L << 20));
            assertThat(late.calls()).as("the first call held, the second relayed").isEqualTo(2);
            assertThat(late.cancelled()).as("the first call ended because the caller gave up on it").isEqualTo(1);
        }
    }

    @Test
    void aWorkerSlowerThanTheDeadlineFailsNamingItTheDeadlineAndTheSetting() {
        try (TestCluster cluster = new TestCluster(1);
                HoldingInfoProxy silent = new HoldingInfoProxy(cluster.worker(0).address(), Integer.MAX_VALUE)) {
            assertThatThrownBy(() -> cluster.connections.workerClient(silent.address()).info(Duration.ofMillis(5_000)))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.WORKER_UNREACHABLE))
                    .hasMessageContaining("worker " + silent.address() + " did not answer the info call within " + SETTING + "=5000 ms (")
                    .hasMessageMatching(".*\\(\\d attempts?\\).*")
                    .hasMessageContaining("raise the deadline: SET " + SETTING + " = 10000 (or --set " + SETTING + "=10000)");
            assertThat(silent.calls()).as("the proxy saw the calls it held").isPositive();
        }
    }

    @Test
    void theCoordinatorTakesTheDeadlineFromTheQuerysSettings() {
        try (TestCluster cluster = new TestCluster(1);
                HoldingInfoProxy silent = new HoldingInfoProxy(cluster.worker(0).address(), Integer.MAX_VALUE);
                Coordinator coordinator = new Coordinator(List.of(cluster.connections.workerClient(silent.address())),
                        cluster.connections.exchangeClient(), CoordinatorConfig.defaults(TestCluster.VERSION), List.of())) {
            var settings = DistributedSettings.TASK_REGISTRY.defaults().with(DistributedSettings.WORKER_INFO_TIMEOUT_MS, 1_500L);
            assertThatThrownBy(() -> coordinator.checkWorkers(cluster.executor, settings))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.WORKER_UNREACHABLE))
                    .hasMessageContaining(silent.address() + " did not answer the info call within " + SETTING + "=1500 ms");
        }
    }

    @Test
    void aWorkerThatIsGoneFailsSoonNamingItInsteadOfWaitingForTheDeadline() {
        try (TestCluster cluster = new TestCluster(1)) {
            WorkerServer worker = cluster.workers.remove(0);
            WorkerAddress address = worker.address();
            var client = cluster.connections.workerClient(address);
            assertThat(client.info().address()).isEqualTo(address);
            worker.close();

            long start = System.nanoTime();
            assertThatThrownBy(() -> client.info(Duration.ofSeconds(120)))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.WORKER_UNREACHABLE))
                    .hasMessageContaining("worker " + address + " is unreachable (UNAVAILABLE")
                    .hasMessageContaining("; 4 attempts in ")
                    .hasMessageEndingWith("is a Quiver worker running there?");
            // refused connections are retried a few times, not until the 120 s deadline
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));
        }
    }
}
