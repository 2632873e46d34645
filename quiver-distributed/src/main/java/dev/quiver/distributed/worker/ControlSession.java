package dev.quiver.distributed.worker;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.ControlMessage;
import dev.quiver.distributed.protocol.FlightErrors;
import dev.quiver.distributed.protocol.HeartbeatClock;
import dev.quiver.distributed.protocol.HeartbeatSettings;
import dev.quiver.distributed.protocol.HeartbeatTicker;
import dev.quiver.distributed.protocol.PartitionSample;
import dev.quiver.distributed.protocol.TaskError;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.TaskRequest;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.distributed.protocol.WireFormat;
import dev.quiver.engine.error.ErrorCode;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.flight.FlightStream;

/**
 * The worker's end of one task's control stream (a DoExchange carrying only app_metadata).
 *
 * <p>Opening: the descriptor holds the task request; a request of another version is refused with
 * WORKER_VERSION_MISMATCH, a bad plan with its error. Otherwise the task is registered and an
 * {@link ControlMessage.Ack} goes back, so the coordinator starts consumers only after their
 * producers are known here.
 *
 * <p>Then the worker sends state changes and heartbeats, and reads heartbeats. A half-close from
 * the coordinator ends the query for this task: the task is stopped (CANCELLED if it was still
 * running, SKIPPED if it never executed; FINISHED and FAILED stay), the final report goes out and
 * the stream completes. A cancelled or broken
 * stream, or a coordinator silent past the heartbeat timeout, stops the task without a report.
 * Either way, the task's state is dropped from the worker.
 */
final class ControlSession implements TaskObserver, HeartbeatTicker.Peer {
    private final WorkerServer server;
    private final FlightStream reader;
    private final ServerStreamListener writer;
    private final Object writeLock = new Object();
    private final AtomicBoolean over = new AtomicBoolean();
    private volatile TaskId taskId;
    private volatile WorkerTask task;
    private volatile HeartbeatClock clock;
    private volatile boolean readerDone;
    private boolean writerDone;

    ControlSession(WorkerServer server, FlightStream reader, ServerStreamListener writer) {
        this.server = requireNonNull(server, "server is null");
        this.reader = requireNonNull(reader, "reader is null");
        this.writer = requireNonNull(writer, "writer is null");
    }

    /** Runs the whole stream on the calling (Flight executor) thread. */
    void run() {
        TaskRequest request;
        try {
            request = server.connections().wire().decodeRequest(reader.getDescriptor().getCommand(), server.version());
            clock = new HeartbeatClock(HeartbeatSettings.fromSettings(request.settings()));
            taskId = request.taskId();
            WorkerTask created = new WorkerTask(request, server, this);
            // the ack goes out before any state change a data request may cause at once
            synchronized (writeLock) {
                try {
                    server.tasks().register(created);
                } catch (RuntimeException e) {
                    created.close();
                    throw e;
                }
                task = created;
                send(new ControlMessage.Ack(request.taskId()));
            }
            // AQE: a sampled producer starts sampling at once, before any consumer asks for data
            created.startSampling();
        } catch (RuntimeException | StackOverflowError e) {
            // a plan nested too deeply can overflow the stack while it is decoded: the task fails, the worker goes on
            fail(e);
            return;
        }
        writer.setOnCancelHandler(() -> stop("the coordinator cancelled the control stream of task " + request.taskId()));
        server.heartbeats().add(this);
        try {
            while (reader.next()) {
                // the coordinator sends only heartbeats; any message proves it alive
                clock.heard();
            }
            readerDone = true;
            endQuery();
        } catch (RuntimeException e) {
            readerDone = true;
            stop("the control stream of task " + request.taskId() + " broke: " + e.getMessage());
        }
    }

    /** Half-close from the coordinator: final report, then completion. */
    private void endQuery() {
        WorkerTask current = task;
        if (!over.compareAndSet(false, true)) {
            return;
        }
        try {
            TaskReport report = current.endQuery();
            send(new ControlMessage.FinalReport(report));
            synchronized (writeLock) {
                if (!writerDone) {
                    writerDone = true;
                    writer.completed();
                }
            }
        } catch (RuntimeException e) {
            // the coordinator must not wait for a report that will not come
            fail(e);
        } finally {
            release(current);
        }
    }

    /** Cancel, broken stream, heartbeat timeout or shutdown: stop the task, no report. */
    @Override
    public void stop(String reason) {
        WorkerTask current = task;
        if (current == null || !over.compareAndSet(false, true)) {
            return;
        }
        try {
            current.abort(reason);
            synchronized (writeLock) {
                if (!writerDone) {
                    writerDone = true;
                    writer.error(FlightErrors.toFlight(ErrorCode.WORKER_LOST, "task " + current.id() + " on worker " + server.address() + " stopped: " + reason));
                }
            }
        } finally {
            release(current);
        }
    }

    private void release(WorkerTask current) {
        server.heartbeats().remove(this);
        server.tasks().remove(current);
        current.close();
    }

    private void fail(Throwable error) {
        synchronized (writeLock) {
            if (!writerDone) {
                writerDone = true;
                writer.error(FlightErrors.toFlight(error));
            }
        }
    }

    @Override
    public void stateChanged(TaskState state, Optional<TaskError> error) {
        send(new ControlMessage.StateChanged(taskId, state, error));
    }

    @Override
    public void sample(PartitionSample sample) {
        send(new ControlMessage.Sample(taskId, sample));
    }

    @Override
    public void tick(long nowNanos) {
        HeartbeatClock current = clock;
        if (current == null) {
            return;
        }
        if (!over.get() && !readerDone && current.silentTooLong(nowNanos)) {
            // the stop (waiting for data requests to wind down) must not hold up other tasks' heartbeats
            server.heartbeats().remove(this);
            server.executor().execute("stop-" + taskId, () -> stop("no heartbeat from the coordinator for "
                    + current.silentMillis(nowNanos) + " ms"));
            return;
        }
        // heartbeats continue while the end of the query winds the task down, until the report is out
        if (current.takeSendDue(nowNanos) && writer.isReady()) {
            send(new ControlMessage.Heartbeat());
        }
    }

    private void send(ControlMessage message) {
        byte[] bytes = server.connections().wire().encode(message);
        synchronized (writeLock) {
            if (writerDone || writer.isCancelled()) {
                return;
            }
            writer.putMetadata(WireFormat.metadata(server.allocator(), bytes));
        }
    }
}
