package dev.quiver.engine.memory;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ResourcesExhaustedException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The single authority on memory for one worker or one local session. Stateful operators (hash
 * aggregates, join build sides, sorts) hold a named {@link MemoryReservation} and grow it before
 * they retain more; a grow that would pass the limit fails with a
 * {@link ResourcesExhaustedException} naming the operator.
 *
 * <p>Thread-safe. Quiver v1 does not spill: a future spill callback would be asked here, before
 * a grow fails.
 */
public final class MemoryPool {
    private final long limitBytes;
    private final AtomicLong usedBytes = new AtomicLong();
    private final AtomicLong peakBytes = new AtomicLong();

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
        return new MemoryReservation(this, requireNonNull(consumer, "consumer is null"));
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
