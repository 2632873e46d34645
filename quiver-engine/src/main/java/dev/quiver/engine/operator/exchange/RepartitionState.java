package dev.quiver.engine.operator.exchange;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.TaskContext;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The queues between a repartition's producers (one per input partition) and its output
 * partitions, shared by the output partitions of one execution.
 *
 * <h2>Back-pressure without deadlock</h2>
 * Each output queue holds a few batches. A producer waits while the queue it sends to is full,
 * but only as long as no open output queue is empty: an empty queue may mean a consumer waiting
 * for data that this producer would produce after its blocked send, so the producer goes on (the
 * gate DataFusion's repartition uses). An output whose stream closed drops what is sent to it;
 * once every output closed, producers stop.
 *
 * <h2>Ends and errors</h2>
 * An output ends when every producer finished and its queue is empty. A producer failure is
 * thrown to every output.
 */
final class RepartitionState implements AutoCloseable {
    private static final long WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<VectorSchemaRoot>[] queues;
    private final boolean[] closed;
    private final ProducerGroup producers = new ProducerGroup();
    private int openOutputs;
    private int runningProducers;
    private boolean started;
    private Throwable failure;

    @SuppressWarnings("unchecked")
    RepartitionState(int outputs, int inputs, int capacity) {
        this.capacity = capacity;
        this.queues = new ArrayDeque[outputs];
        for (int i = 0; i < outputs; i++) {
            queues[i] = new ArrayDeque<>();
        }
        this.closed = new boolean[outputs];
        this.openOutputs = outputs;
        this.runningProducers = inputs;
    }

    /** Runs {@code starter} once, for the first output partition that asks for data. */
    void startOnce(Runnable starter) {
        lock.lock();
        try {
            if (started || openOutputs == 0) {
                return;
            }
            started = true;
        } finally {
            lock.unlock();
        }
        try {
            starter.run();
        } catch (RuntimeException | Error e) {
            // the other outputs wait on producers that will never run: they must see the failure too
            fail(e);
            throw e;
        }
    }

    ProducerGroup producers() {
        return producers;
    }

    /** Queues a batch for {@code output}; closes it instead if that output is closed or the task cancelled. */
    void send(int output, VectorSchemaRoot batch, TaskContext context) {
        lock.lock();
        try {
            while (!closed[output] && queues[output].size() >= capacity && !anyOpenQueueEmpty() && !context.isCancelled()) {
                await();
            }
            if (closed[output] || context.isCancelled()) {
                batch.close();
                return;
            }
            queues[output].addLast(batch);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    boolean isClosed(int output) {
        lock.lock();
        try {
            return closed[output];
        } finally {
            lock.unlock();
        }
    }

    boolean allOutputsClosed() {
        lock.lock();
        try {
            return openOutputs == 0;
        } finally {
            lock.unlock();
        }
    }

    void producerFinished() {
        lock.lock();
        try {
            runningProducers--;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    void fail(Throwable error) {
        lock.lock();
        try {
            if (failure == null) {
                failure = error;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The next batch of {@code output}, or null at its end; throws a producer's failure, or the task's cancellation. */
    VectorSchemaRoot receive(int output, TaskContext context) {
        lock.lock();
        try {
            while (true) {
                if (failure != null) {
                    throw BatchChannel.propagate(failure, context);
                }
                VectorSchemaRoot batch = queues[output].pollFirst();
                if (batch != null) {
                    changed.signalAll();
                    return batch;
                }
                // producers also stop early when the task is cancelled: that end is not the input's end
                context.checkCancelled();
                if (runningProducers <= 0) {
                    return null;
                }
                await();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The consumer of {@code output} is gone: release its queue; the last one waits for the producers. */
    void closeOutput(int output) {
        boolean last;
        lock.lock();
        try {
            if (closed[output]) {
                return;
            }
            closed[output] = true;
            openOutputs--;
            last = openOutputs == 0;
            drain(queues[output]);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (last) {
            producers.awaitAll();
        }
    }

    @Override
    public void close() {
        for (int output = 0; output < queues.length; output++) {
            closeOutput(output);
        }
        producers.awaitAll();
    }

    private boolean anyOpenQueueEmpty() {
        for (int i = 0; i < queues.length; i++) {
            if (!closed[i] && queues[i].isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private static void drain(ArrayDeque<VectorSchemaRoot> queue) {
        VectorSchemaRoot batch;
        while ((batch = queue.pollFirst()) != null) {
            batch.close();
        }
    }

    private void await() {
        try {
            changed.awaitNanos(WAIT_NANOS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QuiverException(ErrorCode.QUERY_CANCELLED, "interrupted while repartitioning", e);
        }
    }
}
