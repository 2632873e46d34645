package dev.quiver.distributed.client;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.HeartbeatSettings;
import dev.quiver.distributed.protocol.TaskRequest;
import dev.quiver.distributed.protocol.WireFormat;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.distributed.protocol.WorkerInfo;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.time.Duration;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallOptions;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.Result;

/**
 * The coordinator's {@link WorkerClient} over Arrow Flight, on a pooled connection of
 * {@link WorkerConnections}. {@link #startTask} opens the task's control stream and returns once
 * the worker acknowledged the task (so a consumer's data requests never outrun the registration
 * of its producers); what the worker says afterwards reaches the {@link TaskListener} from a
 * reader thread of the connections' executor. Thread-safe.
 */
public final class FlightWorkerClient implements WorkerClient {
    /** How long {@link #startTask} waits for the worker to acknowledge a task. */
    public static final Duration ACK_TIMEOUT = Duration.ofSeconds(15);

    private final WorkerAddress address;
    private final WorkerConnections connections;
    private final Set<FlightTaskControl> open = ConcurrentHashMap.newKeySet();

    FlightWorkerClient(WorkerAddress address, WorkerConnections connections) {
        this.address = requireNonNull(address, "address is null");
        this.connections = requireNonNull(connections, "connections is null");
    }

    @Override
    public WorkerAddress address() {
        return address;
    }

    /** Asks until an answer arrives or {@code timeout} passes, again after a late answer or a refused connection ({@link InfoRetry}). */
    @Override
    public WorkerInfo info(Duration timeout) {
        InfoRetry retry = new InfoRetry(address, timeout);
        Optional<Duration> wait = retry.nextAttempt();
        while (true) {
            try {
                return askInfo(wait.orElseThrow());
            } catch (FlightRuntimeException e) {
                if (!retry.retryAfter(e) || (wait = retry.nextAttempt()).isEmpty()) {
                    throw retry.failure(e);
                }
            }
        }
    }

    private WorkerInfo askInfo(Duration wait) {
        Iterator<Result> results = connections.client(address)
                .doAction(new Action(WireFormat.INFO_ACTION), CallOptions.timeout(wait.toMillis(), TimeUnit.MILLISECONDS));
        if (!results.hasNext()) {
            throw new QuiverException(ErrorCode.WORKER_UNREACHABLE, "worker " + address + " gave no answer to " + WireFormat.INFO_ACTION);
        }
        WorkerInfo info = connections.wire().decodeInfo(results.next().getBody());
        results.forEachRemaining(ignored -> { });
        return info;
    }

    @Override
    public TaskControl startTask(TaskRequest request, TaskListener listener) {
        requireNonNull(request, "request is null");
        requireNonNull(listener, "listener is null");
        FlightTaskControl control = new FlightTaskControl(request.taskId(), address, connections, listener,
                HeartbeatSettings.fromSettings(request.settings()), open::remove);
        open.add(control);
        try {
            control.open(connections.wire().encodeRequest(request), ACK_TIMEOUT);
        } catch (RuntimeException e) {
            open.remove(control);
            throw e;
        }
        return control;
    }

    /** Control streams of this client not closed yet. */
    public int openTasks() {
        return open.size();
    }

    /** Aborts control streams still open; the pooled connection stays with {@link WorkerConnections}. */
    @Override
    public void close() {
        for (FlightTaskControl control : open) {
            control.close();
        }
    }
}
