package dev.quiver.distributed.coordinator;

import dev.quiver.distributed.client.TaskControl;
import dev.quiver.distributed.client.TaskListener;
import dev.quiver.distributed.client.WorkerClient;
import dev.quiver.distributed.protocol.TaskError;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.TaskRequest;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.distributed.protocol.WorkerInfo;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A hand-written worker double: it records the task requests it gets, answers endQuery with a final
 * report (FINISHED for tasks marked executed, else SKIPPED), and can be told to fail a task, break its
 * stream, stay silent, or claim another version.
 */
final class FakeWorker implements WorkerClient {
    private final WorkerAddress address;
    private final String version;
    final List<TaskRequest> requests = new ArrayList<>();
    final Map<TaskId, TaskListener> listeners = new ConcurrentHashMap<>();
    final Map<TaskId, Boolean> executed = new ConcurrentHashMap<>();
    final List<TaskId> ended = new ArrayList<>();
    final List<TaskId> aborted = new ArrayList<>();
    volatile boolean unreachable;
    volatile boolean silentOnEnd;
    volatile TaskError failOnStart;
    volatile boolean closed;

    FakeWorker(int port, String version) {
        this.address = new WorkerAddress("127.0.0.1", port);
        this.version = version;
    }

    @Override
    public WorkerAddress address() {
        return address;
    }

    @Override
    public WorkerInfo info(Duration timeout) {
        if (unreachable) {
            throw new QuiverException(ErrorCode.WORKER_UNREACHABLE, "worker " + address + " is not listening");
        }
        return new WorkerInfo(address, version, 2, 1L << 30);
    }

    @Override
    public synchronized TaskControl startTask(TaskRequest request, TaskListener listener) {
        requests.add(request);
        listeners.put(request.taskId(), listener);
        if (failOnStart != null) {
            listener.onStateChanged(request.taskId(), TaskState.RUNNING, Optional.empty());
            listener.onStateChanged(request.taskId(), TaskState.FAILED, Optional.of(failOnStart));
        }
        TaskId id = request.taskId();
        return new TaskControl() {
            @Override
            public void endQuery() {
                synchronized (FakeWorker.this) {
                    ended.add(id);
                }
                if (silentOnEnd) {
                    return;
                }
                TaskState state = failOnStart != null ? TaskState.FAILED : executed.containsKey(id) ? TaskState.FINISHED : TaskState.SKIPPED;
                listener.onFinalReport(new TaskReport(id, address, state, List.of(), state == TaskState.FAILED ? Optional.of(failOnStart) : Optional.empty()));
            }

            @Override
            public void abort(String reason) {
                synchronized (FakeWorker.this) {
                    aborted.add(id);
                }
            }

            @Override
            public void close() {
            }
        };
    }

    /** Breaks the control stream of every task, as a dead worker's would. */
    void die() {
        listeners.forEach((id, listener) -> listener.onStreamFailed(id, new QuiverException(ErrorCode.WORKER_LOST, "worker " + address + " is gone")));
    }

    @Override
    public void close() {
        closed = true;
    }
}
