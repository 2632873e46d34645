package dev.quiver.engine.memory;

/**
 * Bytes one named consumer holds in a {@link MemoryPool}. The consumer grows the reservation
 * before it retains memory (Arrow buffers it keeps, or on-heap state such as hash tables) and
 * shrinks or closes it when it lets go. Closing returns everything to the pool.
 *
 * <p>A reservation is used by one thread at a time (the thread driving its operator partition);
 * the pool itself is thread-safe.
 */
public final class MemoryReservation implements AutoCloseable {
    private final MemoryPool pool;
    private final String consumer;
    private final boolean spillable;
    private long size;
    private long peak;
    private boolean closed;

    MemoryReservation(MemoryPool pool, String consumer, boolean spillable) {
        this.pool = pool;
        this.consumer = consumer;
        this.spillable = spillable;
    }

    public String consumer() {
        return consumer;
    }

    public long size() {
        return size;
    }

    /** The largest size this reservation reached. */
    public long peak() {
        return peak;
    }

    /** Grows by {@code bytes} or throws {@link dev.quiver.engine.error.ResourcesExhaustedException}. */
    public void grow(long bytes) {
        checkOpen();
        if (bytes <= 0) {
            return;
        }
        pool.reserve(consumer, bytes);
        added(bytes);
    }

    /**
     * Grows by {@code bytes} if the pool allows it (and, for a spillable reservation, if it stays
     * within its fair share); returns false (and holds nothing more) otherwise.
     */
    public boolean tryGrow(long bytes) {
        checkOpen();
        if (bytes <= 0) {
            return true;
        }
        if (spillable && size + bytes > pool.fairShare()) {
            return false;
        }
        if (!pool.tryReserve(bytes)) {
            return false;
        }
        added(bytes);
        return true;
    }

    /**
     * How much more {@link #tryGrow} would grant now: the pool's free bytes, and for a spillable
     * reservation no more than is left of its fair share. Another consumer may take it first.
     */
    public long headroom() {
        checkOpen();
        long free = pool.free();
        return spillable ? Math.max(0, Math.min(free, pool.fairShare() - size)) : free;
    }

    private void added(long bytes) {
        size += bytes;
        peak = Math.max(peak, size);
        if (spillable) {
            pool.spillableChanged(bytes);
        }
    }

    public void shrink(long bytes) {
        checkOpen();
        long released = Math.min(bytes, size);
        if (released > 0) {
            pool.release(released);
            size -= released;
            if (spillable) {
                pool.spillableChanged(-released);
            }
        }
    }

    /** Grows or shrinks to exactly {@code newSize} bytes. */
    public void resize(long newSize) {
        if (newSize > size) {
            grow(newSize - size);
        } else {
            shrink(size - newSize);
        }
    }

    /** Returns everything this reservation holds to the pool; the reservation stays usable. */
    public void free() {
        shrink(size);
    }

    @Override
    public void close() {
        if (!closed) {
            free();
            closed = true;
            if (spillable) {
                pool.closedSpillable();
            }
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("reservation " + consumer + " is closed");
        }
    }
}
