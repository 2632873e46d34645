package dev.quiver.distributed.protocol;

import dev.quiver.engine.execution.QuiverExecutor;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One thread that, every few tens of milliseconds, lets each open control stream send its
 * heartbeat when due and notice a peer that went silent. One per worker and one per
 * {@code WorkerConnections} (a process's clients of workers), however many tasks run.
 */
public final class HeartbeatTicker implements AutoCloseable {
    private static final long TICK_MILLIS = 50;

    /** A control stream end: sends a heartbeat when due, fails itself when the peer is silent too long. */
    public interface Peer {
        void tick(long nowNanos);
    }

    private final Set<Peer> peers = ConcurrentHashMap.newKeySet();
    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);

    public HeartbeatTicker(QuiverExecutor executor, String name) {
        executor.execute(name, this::run);
    }

    public void add(Peer peer) {
        peers.add(peer);
    }

    public void remove(Peer peer) {
        peers.remove(peer);
    }

    private void run() {
        try {
            while (!stop.await(TICK_MILLIS, TimeUnit.MILLISECONDS)) {
                long now = System.nanoTime();
                for (Peer peer : peers) {
                    try {
                        peer.tick(now);
                    } catch (RuntimeException e) {
                        // a peer's failure is its own (it reports it); the others still need their heartbeats
                        peers.remove(peer);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stopped.countDown();
        }
    }

    @Override
    public void close() {
        stop.countDown();
        try {
            stopped.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
