package dev.quiver.distributed.worker;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.execution.QuiverExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallOptions;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Result;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * A worker that is slow to answer, for the coordinator's info-call deadline: a real Flight server
 * on 127.0.0.1 in front of a real {@link WorkerServer}, which holds the first {@code held} actions
 * until their caller gives up (its deadline cancels the call) and relays every later one to the
 * worker, whose answer the caller gets. It waits on the caller's cancellation, not on a clock, so
 * "slower than the caller's deadline" holds on a machine of any speed.
 */
final class HoldingInfoProxy implements AutoCloseable {
    /** How long a held call may wait for its caller to give up before the proxy fails it (a caller without a deadline). */
    private static final long GIVE_UP_NANOS = TimeUnit.SECONDS.toNanos(120);

    private final int held;
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicInteger cancelled = new AtomicInteger();
    private final QuiverExecutor executor = new QuiverExecutor("holding-proxy");
    private final BufferAllocator allocator = new RootAllocator();
    private final FlightClient upstream;
    private final FlightServer server;

    /** In front of {@code worker}, holding its first {@code held} calls ({@code Integer.MAX_VALUE}: every call). */
    HoldingInfoProxy(WorkerAddress worker, int held) {
        requireNonNull(worker, "worker is null");
        this.held = held;
        this.upstream = FlightClient.builder(allocator, Location.forGrpcInsecure(worker.host(), worker.port())).build();
        this.server = FlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), new Producer())
                .executor(executor.asExecutorService()).build();
        try {
            server.start();
        } catch (IOException e) {
            close();
            throw new UncheckedIOException(e);
        }
    }

    WorkerAddress address() {
        return new WorkerAddress("127.0.0.1", server.getPort());
    }

    /** Actions that reached the proxy. */
    int calls() {
        return calls.get();
    }

    /** Held actions whose caller gave up. */
    int cancelled() {
        return cancelled.get();
    }

    /** Stops the server (held calls whose caller gave up are over by then) and frees everything. */
    @Override
    public void close() {
        try {
            server.close();
            upstream.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            executor.close();
            allocator.close();
        }
    }

    private final class Producer extends NoOpFlightProducer {
        @Override
        public void doAction(CallContext context, Action action, StreamListener<Result> listener) {
            if (calls.incrementAndGet() <= held) {
                long start = System.nanoTime();
                while (!context.isCancelled() && System.nanoTime() - start < GIVE_UP_NANOS) {
                    TestCluster.sleep(5);
                }
                if (context.isCancelled()) {
                    cancelled.incrementAndGet();
                }
                listener.onError(CallStatus.CANCELLED.withDescription("held until the caller gave up").toRuntimeException());
                return;
            }
            Iterator<Result> results = upstream.doAction(action, CallOptions.timeout(30, TimeUnit.SECONDS));
            results.forEachRemaining(listener::onNext);
            listener.onCompleted();
        }
    }
}
