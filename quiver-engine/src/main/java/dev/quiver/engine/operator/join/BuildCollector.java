package dev.quiver.engine.operator.join;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryReservation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Drains the build input's partitions into a list of batches, growing the build reservation by
 * each batch it keeps. With several partitions, each is drained on its own named executor thread
 * (partition 0 on the calling thread), so that the inputs' work runs in parallel; the first failure
 * stops the others and everything collected is released.
 */
final class BuildCollector {
    private BuildCollector() {}

    /**
     * The batches of partitions {@code [0, partitions)} of the input, each opened by {@code open}
     * on the thread that drains it. On failure every batch is closed before the exception leaves.
     */
    static List<VectorSchemaRoot> collect(int partitions, IntFunction<BatchStream> open, MemoryReservation reservation,
            TaskContext context, String threadName) {
        List<List<VectorSchemaRoot>> collected = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            collected.add(new ArrayList<>());
        }
        AtomicBoolean abort = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch helpers = new CountDownLatch(partitions - 1);
        for (int p = 1; p < partitions; p++) {
            int partition = p;
            try {
                context.executor().execute(threadName + "-" + partition, () -> {
                    try {
                        drain(open, partition, collected.get(partition), reservation, abort);
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                        abort.set(true);
                    } finally {
                        helpers.countDown();
                    }
                });
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
                abort.set(true);
                helpers.countDown();
            }
        }
        try {
            drain(open, 0, collected.get(0), reservation, abort);
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            abort.set(true);
        }
        awaitUninterruptibly(helpers, abort);
        List<VectorSchemaRoot> batches = new ArrayList<>();
        collected.forEach(batches::addAll);
        Throwable error = failure.get();
        if (error != null) {
            batches.forEach(VectorSchemaRoot::close);
            throw rethrow(error);
        }
        return batches;
    }

    private static void drain(IntFunction<BatchStream> open, int partition, List<VectorSchemaRoot> into,
            MemoryReservation reservation, AtomicBoolean abort) {
        try (BatchStream stream = open.apply(partition)) {
            VectorSchemaRoot batch;
            while (!abort.get() && (batch = stream.next()) != null) {
                if (batch.getRowCount() == 0) {
                    batch.close();
                    continue;
                }
                try {
                    // The reservation is grown by one thread at a time, as its contract asks.
                    synchronized (reservation) {
                        reservation.grow(Batches.sizeInBytes(batch));
                    }
                } catch (RuntimeException e) {
                    batch.close();
                    throw e;
                }
                into.add(batch);
            }
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch, AtomicBoolean abort) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
                abort.set(true);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static RuntimeException rethrow(Throwable error) {
        if (error instanceof RuntimeException runtime) {
            return runtime;
        }
        if (error instanceof Error fatal) {
            throw fatal;
        }
        return new QuiverException(ErrorCode.INTERNAL_ERROR, "collecting the join build side failed: " + error, error);
    }
}
