package dev.quiver.engine.operator.exchange;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.TaskContext;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A bounded queue of batches from one or more producer threads to one consumer, the seam of the
 * exchange operators.
 *
 * <p>The queue holds at most {@code capacity} batches, so a slow consumer bounds the memory its
 * producers use. The consumer may {@link #close()} early: queued batches are released, later
 * {@link #send sends} release the batch they were given and return {@code false}, so a producer
 * never blocks on a consumer that has gone away. Waits on either side wake up periodically to
 * notice cancellation of the task.
 *
 * <p>The stream ends when every producer has called {@link #finish()}; a producer's
 * {@link #fail(Throwable) failure} is thrown to the consumer ahead of any queued batches.
 */
final class BatchChannel implements AutoCloseable {
    private static final long WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notFull = lock.newCondition();
    private final Condition notEmpty = lock.newCondition();
    private final ArrayDeque<VectorSchemaRoot> batches = new ArrayDeque<>();
    private int producers;
    private Throwable failure;
    private boolean closed;

    BatchChannel(int capacity, int producers) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        if (producers < 0) {
            throw new IllegalArgumentException("producers must not be negative: " + producers);
        }
        this.capacity = capacity;
        this.producers = producers;
    }

    /**
     * Queues {@code batch}, waiting while the queue is full. Returns {@code false}, having closed
     * the batch, if the consumer closed the channel or the task was cancelled.
     */
    boolean send(VectorSchemaRoot batch, TaskContext context) {
        requireNonNull(batch, "batch is null");
        lock.lock();
        try {
            while (!closed && batches.size() >= capacity && !context.isCancelled()) {
                awaitQuietly(notFull);
            }
            if (closed || context.isCancelled()) {
                batch.close();
                return false;
            }
            batches.addLast(batch);
            notEmpty.signal();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** One producer has no more batches. */
    void finish() {
        lock.lock();
        try {
            producers--;
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Records a producer's failure (the first one wins); the consumer throws it at its next receive. */
    void fail(Throwable error) {
        lock.lock();
        try {
            if (failure == null) {
                failure = requireNonNull(error, "error is null");
            }
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Whether the consumer has closed this channel (producers may stop). */
    boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The next batch, owned by the caller, or {@code null} once every producer finished and the
     * queue is empty. Throws a producer's failure, or the task's failure or cancellation.
     */
    VectorSchemaRoot receive(TaskContext context) {
        lock.lock();
        try {
            while (true) {
                if (failure != null) {
                    throw propagate(failure, context);
                }
                if (closed) {
                    throw new IllegalStateException("channel is closed");
                }
                VectorSchemaRoot batch = batches.pollFirst();
                if (batch != null) {
                    notFull.signal();
                    return batch;
                }
                // producers also stop early when the task is cancelled: that end is not the input's end
                context.checkCancelled();
                if (producers <= 0) {
                    return null;
                }
                awaitQuietly(notEmpty);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Releases queued batches and makes later sends drop their batch; idempotent. */
    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            VectorSchemaRoot batch;
            while ((batch = batches.pollFirst()) != null) {
                batch.close();
            }
            notFull.signalAll();
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The exception to throw for a producer failure. The producer reported it to the task first,
     * so the task's first failure (which may be a sibling's, and is the cause of any
     * cancellations) is preferred, keeping the original exception and its error code.
     */
    static RuntimeException propagate(Throwable error, TaskContext context) {
        if (context.isCancelled()) {
            context.checkCancelled();
        }
        if (error instanceof RuntimeException runtime) {
            return runtime;
        }
        if (error instanceof Error fatal) {
            throw fatal;
        }
        return new QuiverException(ErrorCode.INTERNAL_ERROR, "producer failed: " + error, error);
    }

    /** Converts anything a producer thread caught into what it reports to the task. */
    static RuntimeException asRuntime(Throwable error) {
        if (error instanceof RuntimeException runtime) {
            return runtime;
        }
        return new QuiverException(ErrorCode.INTERNAL_ERROR, "producer failed: " + error, error);
    }

    private static void awaitQuietly(Condition condition) {
        try {
            condition.awaitNanos(WAIT_NANOS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QuiverException(ErrorCode.QUERY_CANCELLED, "interrupted while waiting for batches", e);
        }
    }
}
