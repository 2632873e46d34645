package dev.quiver.engine.operator.exchange;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

/**
 * The producer threads an exchange started, so that closing the exchange can wait until they have
 * stopped and closed their inputs: after {@link #awaitAll()} no producer touches the allocator.
 */
final class ProducerGroup {
    private int running;

    /** Runs {@code body} on a named thread of the task's executor. */
    void start(TaskContext context, String threadName, Runnable body) {
        requireNonNull(body, "body is null");
        synchronized (this) {
            running++;
        }
        try {
            context.executor().execute(threadName, () -> {
                try {
                    body.run();
                } finally {
                    done();
                }
            });
        } catch (RuntimeException e) {
            done();
            throw e;
        }
    }

    /**
     * Starts one producer per opened stream, the {@code i}th on a thread named {@code threadName(i)};
     * if one cannot start, the streams not yet handed to a producer are closed.
     */
    void startEach(TaskContext context, List<BatchStream> streams, IntFunction<String> threadName,
            BiFunction<Integer, BatchStream, Runnable> body) {
        for (int i = 0; i < streams.size(); i++) {
            try {
                start(context, threadName.apply(i), body.apply(i, streams.get(i)));
            } catch (RuntimeException | Error e) {
                InputPartitions.closeAll(streams.subList(i, streams.size()), e);
                throw e;
            }
        }
    }

    /** Waits until every started producer has returned. */
    synchronized void awaitAll() {
        boolean interrupted = false;
        while (running > 0) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    synchronized int running() {
        return running;
    }

    private synchronized void done() {
        running--;
        notifyAll();
    }
}
