package dev.quiver.distributed.client;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.ControlMessage;
import dev.quiver.distributed.protocol.FlightErrors;
import dev.quiver.distributed.protocol.HeartbeatClock;
import dev.quiver.distributed.protocol.HeartbeatSettings;
import dev.quiver.distributed.protocol.HeartbeatTicker;
import dev.quiver.distributed.protocol.TaskError;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.WireFormat;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.arrow.flight.FlightClient.ExchangeReaderWriter;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.memory.ArrowBuf;

/**
 * The coordinator's end of one task's control stream. A reader thread turns the worker's
 * messages into {@link TaskListener} calls; the connections' heartbeat thread sends heartbeats and
 * declares the worker lost (WORKER_LOST, naming it) when it has been silent past the timeout.
 * Exactly one of {@code onFinalReport} and {@code onStreamFailed} is called, unless the
 * coordinator {@linkplain #abort aborts} the stream itself.
 */
final class FlightTaskControl implements TaskControl, HeartbeatTicker.Peer {
    private final TaskId task;
    private final WorkerAddress worker;
    private final WorkerConnections connections;
    private final TaskListener listener;
    private final HeartbeatClock clock;
    private final Consumer<FlightTaskControl> onClosed;
    private final CompletableFuture<Void> acknowledged = new CompletableFuture<>();
    private final AtomicBoolean settled = new AtomicBoolean();
    private final CountDownLatch readerDone = new CountDownLatch(1);
    private final Object writeLock = new Object();
    private volatile ExchangeReaderWriter exchange;
    private volatile Thread readerThread;
    private boolean halfClosed;
    private boolean streamClosed;

    FlightTaskControl(TaskId task, WorkerAddress worker, WorkerConnections connections, TaskListener listener, HeartbeatSettings heartbeats,
            Consumer<FlightTaskControl> onClosed) {
        this.task = requireNonNull(task, "task is null");
        this.worker = requireNonNull(worker, "worker is null");
        this.connections = requireNonNull(connections, "connections is null");
        this.listener = requireNonNull(listener, "listener is null");
        this.clock = new HeartbeatClock(heartbeats);
        this.onClosed = requireNonNull(onClosed, "onClosed is null");
    }

    /** Opens the stream with the task request and waits for the worker's acknowledgement. */
    void open(byte[] request, Duration ackTimeout) {
        try {
            exchange = connections.client(worker).doExchange(FlightDescriptor.command(request));
        } catch (FlightRuntimeException e) {
            readerDone.countDown();
            throw new QuiverException(ErrorCode.WORKER_UNREACHABLE, "cannot open the control stream of task " + task + " on worker " + worker + ": "
                    + FlightErrors.describe(e), e);
        }
        connections.executeReader("control-" + task, this::read);
        try {
            acknowledged.get(ackTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            awaitReader();
            throw e.getCause() instanceof QuiverException quiver ? quiver
                    : new QuiverException(ErrorCode.WORKER_LOST, "task " + task + " on worker " + worker + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            settled.set(true);
            cancel("no acknowledgement");
            awaitReader();
            throw new QuiverException(ErrorCode.WORKER_LOST, "worker " + worker + " did not acknowledge task " + task + " within "
                    + ackTimeout.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            settled.set(true);
            cancel("interrupted");
            awaitReader();
            throw new QuiverException(ErrorCode.QUERY_CANCELLED, "interrupted while starting task " + task + " on worker " + worker);
        }
        clock.heard();
        connections.heartbeats().add(this);
    }

    private void read() {
        readerThread = Thread.currentThread();
        boolean reported = false;
        try {
            while (exchange.getReader().next()) {
                ArrowBuf metadata = exchange.getReader().getLatestMetadata();
                if (metadata == null) {
                    continue;
                }
                clock.heard();
                byte[] bytes = new byte[(int) metadata.readableBytes()];
                metadata.getBytes(metadata.readerIndex(), bytes);
                ControlMessage message = connections.wire().decodeControl(bytes);
                if (message instanceof ControlMessage.Ack) {
                    acknowledged.complete(null);
                } else if (message instanceof ControlMessage.StateChanged changed) {
                    if (!settled.get()) {
                        listener.onStateChanged(task, changed.state(), changed.error());
                    }
                } else if (message instanceof ControlMessage.Sample sample) {
                    if (!settled.get()) {
                        listener.onSample(task, sample.sample());
                    }
                } else if (message instanceof ControlMessage.FinalReport report) {
                    reported = true;
                    if (settled.compareAndSet(false, true)) {
                        listener.onFinalReport(report.report());
                    }
                }
            }
            if (!reported) {
                failed(new QuiverException(ErrorCode.WORKER_LOST, "worker " + worker + " ended the control stream of task " + task
                        + " without a final report"));
            }
        } catch (RuntimeException e) {
            failed(streamError(e));
        } finally {
            connections.removeHeartbeat(this);
            synchronized (writeLock) {
                // no heartbeat may be written into a closed stream (its buffer would leak)
                streamClosed = true;
                StreamRelease.release(exchange);
            }
            readerDone.countDown();
        }
    }

    private QuiverException streamError(RuntimeException failure) {
        if (failure instanceof FlightRuntimeException flight) {
            Optional<TaskError> remote = FlightErrors.remoteError(flight);
            if (remote.isPresent()) {
                return new QuiverException(remote.get().code(), "worker " + worker + ", task " + task + ": " + remote.get().message(), failure);
            }
            ErrorCode code = FlightErrors.isUnavailable(flight) && !acknowledged.isDone() ? ErrorCode.WORKER_UNREACHABLE : ErrorCode.WORKER_LOST;
            return new QuiverException(code, "lost the control stream of task " + task + " on worker " + worker + " (" + FlightErrors.describe(flight) + ")",
                    failure);
        }
        if (failure instanceof QuiverException quiver) {
            return quiver;
        }
        return new QuiverException(ErrorCode.WORKER_LOST, "the control stream of task " + task + " on worker " + worker + " failed: " + failure, failure);
    }

    private void failed(QuiverException error) {
        if (!acknowledged.isDone()) {
            acknowledged.completeExceptionally(error);
            return;
        }
        if (settled.compareAndSet(false, true)) {
            listener.onStreamFailed(task, error);
        }
    }

    @Override
    public void tick(long nowNanos) {
        if (clock.silentTooLong(nowNanos)) {
            connections.removeHeartbeat(this);
            failed(new QuiverException(ErrorCode.WORKER_LOST, "worker " + worker + " sent nothing on the control stream of task " + task + " for "
                    + clock.silentMillis(nowNanos) + " ms: it is hung or overloaded"));
            cancel("heartbeat timeout");
            return;
        }
        if (clock.takeSendDue(nowNanos)) {
            byte[] bytes = connections.wire().encode(new ControlMessage.Heartbeat());
            synchronized (writeLock) {
                if (halfClosed || streamClosed || !exchange.getWriter().isReady()) {
                    return;
                }
                exchange.getWriter().putMetadata(WireFormat.metadata(connections.allocator(), bytes));
            }
        }
    }

    @Override
    public void endQuery() {
        synchronized (writeLock) {
            if (halfClosed || streamClosed) {
                return;
            }
            halfClosed = true;
            try {
                exchange.getWriter().completed();
            } catch (RuntimeException e) {
                // the stream already ended; the reader reports how
            }
        }
    }

    @Override
    public void abort(String reason) {
        settled.set(true);
        cancel(reason);
    }

    private void cancel(String reason) {
        ExchangeReaderWriter current = exchange;
        if (current != null && readerDone.getCount() > 0) {
            current.getReader().cancel("aborted by the coordinator: " + reason, null);
        }
    }

    @Override
    public void close() {
        if (Thread.currentThread() == readerThread) {
            // called from a listener callback: the reader closes the stream itself once the callback
            // returns, and the connections' close waits for that (WorkerConnections#executeReader)
            if (!settled.get()) {
                abort("closed");
            }
            onClosed.accept(this);
            return;
        }
        if (readerDone.getCount() > 0) {
            abort("closed");
        }
        awaitReader();
        onClosed.accept(this);
    }

    private void awaitReader() {
        try {
            if (!readerDone.await(10, TimeUnit.SECONDS)) {
                throw new QuiverException(ErrorCode.INTERNAL_ERROR, "the control stream of task " + task + " on worker " + worker + " did not close");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
