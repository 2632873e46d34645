package dev.quiver.engine.operator.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * The build side that all probe partitions of a collect-left hash join (or a nested-loop join)
 * share, kept in {@link dev.quiver.engine.execution.TaskContext#sharedState}.
 *
 * <p>The first partition to ask builds it on its own thread while the others wait; a failure
 * reaches every partition. Each partition reports when it has probed all its input
 * ({@link #finishProbe()}): the last one emits the unmatched (or matched) build rows, after every
 * other partition's marks, which the lock here orders before its reads. A partition closed before
 * its input ended never reports, so no build rows are emitted from partial marks. The build side
 * is freed when every probe partition has released it, or with the task context at the latest.
 */
final class SharedBuild implements AutoCloseable {
    private final int probePartitions;
    private final Supplier<BuildSide> builder;
    private CompletableFuture<BuildSide> future;
    private int finished;
    private int released;
    private boolean closed;

    SharedBuild(int probePartitions, Supplier<BuildSide> builder) {
        this.probePartitions = probePartitions;
        this.builder = requireNonNull(builder, "builder is null");
    }

    /** A handle for one probe partition. */
    BuildSideHandle handle(PartitionMetrics metrics) {
        return new Handle(requireNonNull(metrics, "metrics is null"));
    }

    private BuildSide acquire() {
        CompletableFuture<BuildSide> pending;
        boolean mine = false;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("shared join build side already closed");
            }
            if (future == null) {
                future = new CompletableFuture<>();
                mine = true;
            }
            pending = future;
        }
        if (mine) {
            try {
                BuildSide build = builder.get();
                boolean discard;
                synchronized (this) {
                    discard = closed;
                }
                if (discard) {
                    build.close();
                    throw new QuiverException(ErrorCode.QUERY_CANCELLED, "join build side finished after its task was closed");
                }
                pending.complete(build);
                return build;
            } catch (RuntimeException | Error e) {
                pending.completeExceptionally(e);
                throw e;
            }
        }
        return await(pending);
    }

    private static BuildSide await(CompletableFuture<BuildSide> pending) {
        try {
            return pending.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QuiverException(ErrorCode.QUERY_CANCELLED, "interrupted while waiting for the join build side", e);
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error fatal) {
                throw fatal;
            }
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "building the join build side failed: " + cause, cause);
        }
    }

    private synchronized boolean finishProbe() {
        finished++;
        return finished == probePartitions;
    }

    private void release(PartitionMetrics metrics) {
        boolean last;
        synchronized (this) {
            released++;
            last = released == probePartitions;
        }
        BuildSide build = built();
        if (build != null) {
            metrics.recordMemory(build.peakMemory());
        }
        if (last) {
            close();
        }
    }

    private synchronized BuildSide built() {
        if (future == null || !future.isDone() || future.isCompletedExceptionally()) {
            return null;
        }
        return future.join();
    }

    @Override
    public void close() {
        BuildSide build;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            build = future == null || !future.isDone() || future.isCompletedExceptionally() ? null : future.join();
        }
        if (build != null) {
            build.close();
        }
    }

    private final class Handle implements BuildSideHandle {
        private final PartitionMetrics metrics;
        private boolean released;

        Handle(PartitionMetrics metrics) {
            this.metrics = metrics;
        }

        @Override
        public BuildSide acquire() {
            return SharedBuild.this.acquire();
        }

        @Override
        public boolean finishProbe() {
            return SharedBuild.this.finishProbe();
        }

        @Override
        public void release() {
            if (!released) {
                released = true;
                SharedBuild.this.release(metrics);
            }
        }
    }
}
