package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.memory.MemoryReservation;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Admission control: how many queries run at once, and the memory each may use, under the server's
 * one pool. A query is admitted when fewer than {@code maxConcurrent} run and the pool can grant it
 * {@code queryMemory} bytes, which stay reserved in the pool while it runs (a reservation named
 * after the query) and are the limit of its own pool; otherwise it waits in a bounded queue, first
 * come first served, up to the queue timeout.
 *
 * <p>Reserving each query's share up front (as Impala's admission control does) means a query that
 * starts can use its share without meeting another's: two queries that each need most of the pool
 * run one after the other instead of failing each other half-way. A query that needs more than its
 * share fails with EXCEEDED_MEMORY_LIMIT naming the operator, as in a session of that limit.
 */
final class Admission {
    /** A running query's admission: its pool; closing it gives the share back and admits the next. */
    final class Grant implements AutoCloseable {
        private final Optional<MemoryReservation> reservation;
        private final MemoryPool pool;
        private boolean closed;

        private Grant(Optional<MemoryReservation> reservation, MemoryPool pool) {
            this.reservation = reservation;
            this.pool = pool;
        }

        /** The pool the query reserves from, of the granted size. */
        MemoryPool pool() {
            return pool;
        }

        @Override
        public void close() {
            lock.lock();
            try {
                if (closed) {
                    return;
                }
                closed = true;
                reservation.ifPresent(MemoryReservation::close);
                running--;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** How often a waiting query looks at its client even without a signal. */
    private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final MemoryPool serverPool;
    private final AdmissionSettings settings;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** The waiting queries in arrival order: only the first may take a free slot. */
    private final Deque<String> queue = new ArrayDeque<>();
    private int running;

    Admission(MemoryPool serverPool, AdmissionSettings settings) {
        this.serverPool = requireNonNull(serverPool, "serverPool is null");
        this.settings = requireNonNull(settings, "settings is null");
        if (settings.queryMemory() != Long.MAX_VALUE && settings.queryMemory() > serverPool.limit()) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "The memory of one query (" + ByteSize.formatBytes(settings.queryMemory())
                    + ") is more than the server's pool (" + ByteSize.formatBytes(serverPool.limit()) + ")");
        }
    }

    AdmissionSettings settings() {
        return settings;
    }

    /**
     * Waits until {@code queryId} may run.
     *
     * @param cancelled whether the query's client went away; read whenever the query wakes ({@link #wake()})
     * @throws QuiverException QUERY_QUEUE_FULL at once when the queue is full, QUERY_QUEUE_TIMEOUT
     *     after the queue timeout, QUERY_CANCELLED if cancelled while waiting
     */
    Grant admit(String queryId, BooleanSupplier cancelled) {
        lock.lock();
        try {
            if (queue.size() >= settings.maxQueued()) {
                throw new QuiverException(ErrorCode.QUERY_QUEUE_FULL, "The server is busy: " + running + " queries run and " + queue.size()
                        + " wait, as many as its queue holds (--max-queued-queries); try again later");
            }
            queue.addLast(queryId);
            try {
                return awaitTurn(queryId, cancelled, System.nanoTime() + settings.queueTimeout().toNanos());
            } finally {
                queue.remove(queryId);
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Wakes the waiting queries, e.g. after one's client cancelled it. */
    void wake() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Queries running now. */
    int running() {
        lock.lock();
        try {
            return running;
        } finally {
            lock.unlock();
        }
    }

    private Grant awaitTurn(String queryId, BooleanSupplier cancelled, long deadline) {
        try {
            while (true) {
                if (cancelled.getAsBoolean()) {
                    throw new QuiverException(ErrorCode.QUERY_CANCELLED, "Query " + queryId + " was cancelled while it waited to run");
                }
                if (queryId.equals(queue.peekFirst()) && running < settings.maxConcurrent()) {
                    Optional<Grant> grant = tryGrant(queryId);
                    if (grant.isPresent()) {
                        return grant.get();
                    }
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    throw new QuiverException(ErrorCode.QUERY_QUEUE_TIMEOUT, "Query " + queryId + " waited " + settings.queueTimeout().toSeconds()
                            + " s to run and timed out (--queue-timeout): " + running + " queries run, holding " + ByteSize.formatBytes(serverPool.used())
                            + " of the server's " + ByteSize.formatBytes(serverPool.limit()) + "; each needs " + ByteSize.formatBytes(settings.queryMemory()));
                }
                changed.awaitNanos(Math.min(remaining, RECHECK_NANOS));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QuiverException(ErrorCode.QUERY_CANCELLED, "Query " + queryId + " was interrupted while it waited to run", e);
        }
    }

    private Optional<Grant> tryGrant(String queryId) {
        if (settings.queryMemory() == Long.MAX_VALUE) {
            running++;
            return Optional.of(new Grant(Optional.empty(), MemoryPool.unlimited()));
        }
        MemoryReservation reservation = serverPool.newReservation("query " + queryId);
        if (!reservation.tryGrow(settings.queryMemory())) {
            reservation.close();
            return Optional.empty();
        }
        running++;
        return Optional.of(new Grant(Optional.of(reservation), new MemoryPool(settings.queryMemory())));
    }
}
