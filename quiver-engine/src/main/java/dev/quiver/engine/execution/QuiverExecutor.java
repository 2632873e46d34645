package dev.quiver.engine.execution;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The threads that drive executing partitions and the inputs that repartitions and coalesces
 * drain. It grows as needed, so a consumer never waits on a producer queued behind it; idle threads
 * end after a minute. Owned by a worker or a local session, which closes it.
 */
public final class QuiverExecutor implements AutoCloseable {
    private final String owner;
    private final ThreadPoolExecutor pool;
    private final AtomicLong threadIds = new AtomicLong();

    public QuiverExecutor(String owner) {
        this.owner = requireNonNull(owner, "owner is null");
        ThreadFactory factory = runnable -> {
            Thread thread = new Thread(runnable, "quiver-" + owner + "-" + threadIds.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        this.pool = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), factory);
    }

    /**
     * Runs {@code task} on a thread of this executor, renamed to {@code name} while it runs so
     * that thread dumps say what each thread is doing.
     */
    public void execute(String name, Runnable task) {
        requireNonNull(task, "task is null");
        pool.execute(() -> {
            Thread current = Thread.currentThread();
            String previous = current.getName();
            current.setName("quiver-" + owner + "-" + name);
            try {
                task.run();
            } finally {
                current.setName(previous);
            }
        });
    }

    /** Threads currently running a task. */
    public int activeThreads() {
        return pool.getActiveCount();
    }

    public ExecutorService asExecutorService() {
        return pool;
    }

    @Override
    public void close() {
        pool.shutdownNow();
        try {
            pool.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
