package dev.quiver.distributed.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskRequest;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.distributed.protocol.WorkerInfo;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.memory.MemoryScanExec;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class WorkerServerTest {
    private static final Schema SCHEMA = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true))));

    @Test
    void answersWorkerInfo() {
        try (TestCluster cluster = new TestCluster(1)) {
            WorkerInfo info = cluster.client(0).info();
            assertThat(info).isEqualTo(new WorkerInfo(cluster.worker(0).address(), TestCluster.VERSION, 2, 256L << 20));
        }
    }

    @Test
    void unreachableAddressFailsWithinSecondsNamingIt() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        WorkerAddress nobody = new WorkerAddress("127.0.0.1", port);
        try (TestCluster cluster = new TestCluster(0)) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> cluster.connections.workerClient(nobody).info())
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.WORKER_UNREACHABLE))
                    .hasMessageContaining("127.0.0.1:" + port);
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(5_000);
        }
    }

    @Test
    void refusesTaskOfAnotherVersion() {
        try (TestCluster cluster = new TestCluster(1)) {
            TaskRequest request = new TaskRequest(new TaskId("q1", 1, 0), MemoryScanExec.split(SCHEMA, List.of(List.of(1L)), 1),
                    Optional.of(new ProducerHead.Coalesce()), DistributedSettings.TASK_REGISTRY.defaults(), "other-9");
            RecordingListener listener = new RecordingListener();
            assertThatThrownBy(() -> cluster.client(0).startTask(request, listener))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.WORKER_VERSION_MISMATCH))
                    .hasMessageContaining("other-9")
                    .hasMessageContaining(TestCluster.VERSION)
                    .hasMessageContaining(cluster.worker(0).address().toString());
            assertThat(cluster.worker(0).activeTasks()).isZero();
        }
    }

    @Test
    void closeStopsRunningTasksAndFreesEverything() {
        TestCluster cluster = new TestCluster(1);
        WorkerServer worker = cluster.worker(0);
        RecordingListener listener = new RecordingListener();
        var control = cluster.client(0).startTask(TestCluster.request(new TaskId("q1", 1, 0), MemoryScanExec.split(SCHEMA, List.of(List.of(1L)), 1),
                Optional.of(new ProducerHead.Coalesce()), Map.of()), listener);
        assertThat(worker.activeTasks()).isEqualTo(1);
        worker.close();
        QuiverException failure = listener.awaitFailure();
        assertThat(failure.errorCode()).isEqualTo(ErrorCode.WORKER_LOST);
        assertThat(failure.getMessage()).contains(worker.address().toString());
        control.close();
        cluster.workers.clear();
        cluster.close();
    }
}
