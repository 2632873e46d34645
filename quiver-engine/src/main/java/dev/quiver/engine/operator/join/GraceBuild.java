package dev.quiver.engine.operator.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.error.ResourcesExhaustedException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.memory.MemoryReservation;
import dev.quiver.engine.metrics.PartitionMetrics;
import dev.quiver.engine.spill.SpillFile;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Builds the build side of one grace-join step from a stream (the build input, or a spill file of
 * it) in a spillable reservation, or, when the pool refuses to hold it, hash-splits what it holds
 * and the rest of the stream into spill files ({@link SpillPartitions}) at the given level.
 */
final class GraceBuild {
    /** The deepest split level: at most this many + 1 splits (8^4 = 4096 partitions) before giving up. */
    static final int MAX_LEVEL = 3;

    private final BuildSide.Spec spec;
    private final SpillHash hash;
    private final TaskContext context;
    private final PartitionMetrics metrics;

    GraceBuild(BuildSide.Spec spec, SpillHash hash, TaskContext context, PartitionMetrics metrics) {
        this.spec = requireNonNull(spec, "spec is null");
        this.hash = requireNonNull(hash, "hash is null");
        this.context = requireNonNull(context, "context is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    /** The build input's schema. */
    org.apache.arrow.vector.types.pojo.Schema schema() {
        return spec.schema();
    }

    /** Either the build side, or the spill files it was split into (one per spill partition, null where empty). */
    record Outcome(BuildSide build, List<SpillFile> files) {}

    /** Drains and closes {@code source}: builds it in memory if it fits, otherwise splits it at {@code level}. */
    Outcome buildOrSplit(BatchStream source, int level) {
        MemoryReservation reservation = context.memoryPool().newSpillableReservation(spec.consumer());
        List<VectorSchemaRoot> held = new ArrayList<>();
        try (source) {
            VectorSchemaRoot batch;
            while ((batch = source.next()) != null) {
                if (batch.getRowCount() == 0) {
                    batch.close();
                    continue;
                }
                if (!reservation.tryGrow(Batches.sizeInBytes(batch))) {
                    try (VectorSchemaRoot refused = batch) {
                        return new Outcome(null, split(held, refused, source, level, reservation, Batches.sizeInBytes(refused)));
                    }
                }
                held.add(batch);
                context.checkCancelled();
            }
            long assembly = BuildSide.assemblyBytes(spec, held);
            if (!reservation.tryGrow(assembly)) {
                return new Outcome(null, split(held, null, source, level, reservation, assembly));
            }
            // assemble grows by what it uses as it goes; what was just reserved guarantees the room
            reservation.shrink(assembly);
            List<VectorSchemaRoot> batches = List.copyOf(held);
            held.clear();
            return new Outcome(BuildSide.assemble(spec, batches, reservation, context, metrics), null);
        } catch (RuntimeException | Error e) {
            held.forEach(VectorSchemaRoot::close);
            reservation.close();
            throw e;
        }
    }

    /**
     * Writes the held batches (releasing each as it goes), {@code refusedBatch} (not reserved; the
     * caller closes it) and the rest of {@code source} to spill
     * files at {@code level}; fails when the level is past {@link #MAX_LEVEL}, where repeated splits
     * have not made the partition fit: its rows are (nearly) all of one key, which no split separates.
     */
    private List<SpillFile> split(List<VectorSchemaRoot> held, VectorSchemaRoot refusedBatch, BatchStream source, int level,
            MemoryReservation reservation, long refused) {
        if (level > MAX_LEVEL) {
            long rows = held.stream().mapToLong(VectorSchemaRoot::getRowCount).sum() + (refusedBatch == null ? 0 : refusedBatch.getRowCount());
            MemoryPool pool = context.memoryPool();
            throw new ResourcesExhaustedException(spec.consumer(), refused, pool.used(), pool.limit(),
                    "; spilling cannot help: after " + (MAX_LEVEL + 1) + " hash splits of the build side, one spill partition"
                            + " still does not fit in this join's share of the pool (refused after " + rows + " rows), so its rows share"
                            + " very few join keys; raise memory_limit, or join on more selective keys");
        }
        try (SpillPartitions partitions = new SpillPartitions(spec.consumer(), spec.schema(), level, hash, null, context, metrics)) {
            while (!held.isEmpty()) {
                try (VectorSchemaRoot batch = held.remove(held.size() - 1)) {
                    partitions.add(batch);
                    reservation.shrink(Batches.sizeInBytes(batch));
                }
            }
            metrics.recordMemory(reservation.peak());
            reservation.close();
            if (refusedBatch != null) {
                partitions.add(refusedBatch);
            }
            VectorSchemaRoot batch;
            while ((batch = source.next()) != null) {
                try (VectorSchemaRoot owned = batch) {
                    partitions.add(owned);
                }
            }
            return partitions.finish();
        }
    }
}
