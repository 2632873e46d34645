package dev.quiver.engine.memory;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ResourcesExhaustedException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The single authority on memory for one worker or one local session. Stateful operators (hash
 * aggregates, join build sides, sorts) hold a named {@link MemoryReservation} and grow it before
 * they retain more; a grow that would pass the limit fails with a
 * {@link ResourcesExhaustedException} naming the operator.
 *
 * <p>A consumer that can spill (a sort, say) holds a {@link #newSpillableReservation spillable}
 * reservation, which asks with {@link MemoryReservation#tryGrow} and spills when refused. So that one
 * such consumer cannot starve the others of the pool (they cannot make it spill), each may hold at
 * most its fair share: what the unspillable reservations leave of the limit, divided by the number
 * of spillable reservations open.
 *
 * <p>Thread-safe.
 */
public final class MemoryPool {
    private final long limitBytes;
    private final AtomicLong usedBytes = new AtomicLong();
    private final AtomicLong peakBytes = new AtomicLong();
    private final AtomicInteger spillableReservations = new AtomicInteger();
    /** Bytes held by spillable reservations: the rest of {@link #usedBytes} cannot be given back by spilling. */
    private final AtomicLong spillableBytes = new AtomicLong();

    /** A pool with the given limit in bytes; {@link Long#MAX_VALUE} means unlimited. */
    public MemoryPool(long limitBytes) {
        if (limitBytes <= 0) {
            throw new IllegalArgumentException("memory limit must be positive: " + limitBytes);
        }
        this.limitBytes = limitBytes;
    }

    public static MemoryPool unlimited() {
        return new MemoryPool(Long.MAX_VALUE);
    }

    /** Opens a reservation of zero bytes for the named consumer, e.g. {@code HashAggregateExec[partition=1]}. */
    public MemoryReservation newReservation(String consumer) {
        return new MemoryReservation(this, requireNonNull(consumer, "consumer is null"), false);
    }

    /**
     * Opens a reservation for a consumer that spills when {@link MemoryReservation#tryGrow} refuses:
     * it is refused beyond its fair share of the pool as well as beyond the limit.
     */
    public MemoryReservation newSpillableReservation(String consumer) {
        spillableReservations.incrementAndGet();
        return new MemoryReservation(this, requireNonNull(consumer, "consumer is null"), true);
    }

    /** What each spillable reservation may hold now: what unspillable ones leave, shared among those open. */
    long fairShare() {
        long unspillable = Math.max(0, usedBytes.get() - spillableBytes.get());
        return Math.max(0, limitBytes - unspillable) / Math.max(1, spillableReservations.get());
    }

    /** Bytes not reserved by anyone. */
    long free() {
        return Math.max(0, limitBytes - usedBytes.get());
    }

    void spillableChanged(long delta) {
        spillableBytes.addAndGet(delta);
    }

    void closedSpillable() {
        spillableReservations.decrementAndGet();
    }

    public long limit() {
        return limitBytes;
    }

    public long used() {
        return usedBytes.get();
    }

    public long peak() {
        return peakBytes.get();
    }

    boolean tryReserve(long bytes) {
        while (true) {
            long used = usedBytes.get();
            long next = used + bytes;
            if (next > limitBytes || next < 0) {
                return false;
            }
            if (usedBytes.compareAndSet(used, next)) {
                peakBytes.accumulateAndGet(next, Math::max);
                return true;
            }
        }
    }

    void reserve(String consumer, long bytes) {
        if (!tryReserve(bytes)) {
            throw new ResourcesExhaustedException(consumer, bytes, usedBytes.get(), limitBytes);
        }
    }

    void release(long bytes) {
        long after = usedBytes.addAndGet(-bytes);
        if (after < 0) {
            throw new IllegalStateException("memory pool released more than was reserved: " + after);
        }
    }

    @Override
    public String toString() {
        return "MemoryPool{used=" + ByteSize.formatBytes(used())
                + ", limit=" + (limitBytes == Long.MAX_VALUE ? "unlimited" : ByteSize.formatBytes(limitBytes)) + "}";
    }
}
