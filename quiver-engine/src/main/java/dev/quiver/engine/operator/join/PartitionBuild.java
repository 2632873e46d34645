package dev.quiver.engine.operator.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.function.Supplier;

/** The build side of one partition of a partitioned hash join, owned by that partition's stream. */
final class PartitionBuild implements BuildSideHandle {
    private final Supplier<BuildSide> builder;
    private final Runnable closeInput;
    private final PartitionMetrics metrics;
    private BuildSide build;
    private boolean released;

    /**
     * @param builder builds the side on first {@link #acquire()}
     * @param closeInput closes the build input if it was never consumed
     */
    PartitionBuild(Supplier<BuildSide> builder, Runnable closeInput, PartitionMetrics metrics) {
        this.builder = requireNonNull(builder, "builder is null");
        this.closeInput = requireNonNull(closeInput, "closeInput is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    @Override
    public BuildSide acquire() {
        if (released) {
            throw new IllegalStateException("build side already released");
        }
        if (build == null) {
            build = builder.get();
        }
        return build;
    }

    @Override
    public boolean finishProbe() {
        return true;
    }

    @Override
    public void release() {
        if (released) {
            return;
        }
        released = true;
        closeInput.run();
        if (build != null) {
            metrics.recordMemory(build.peakMemory());
            build.close();
            build = null;
        }
    }
}
