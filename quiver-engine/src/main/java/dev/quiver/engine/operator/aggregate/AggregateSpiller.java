package dev.quiver.engine.operator.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.metrics.PartitionMetrics;
import dev.quiver.engine.spill.SpillFile;
import dev.quiver.engine.spill.SpillMetrics;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.IntToLongFunction;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The spill bookkeeping of one partition of a hash aggregate that spills (see
 * {@link AggregateStream}): the files of the level being built ({@link SpillPartitions}), the
 * spilled partitions waiting to be merged, and the one being read back.
 *
 * <p>Levels: the operator's input is level 0. A table that spilled writes, at the end of its
 * input, what it still holds, and its partitions are merged one at a time as tables of the next
 * level, which may spill in turn (depth-first, so at most {@link SpillPartitions#FAN_OUT} files per
 * level wait at once).
 *
 * <p>Counters, as {@link dev.quiver.engine.spill.SpillMetrics} names them: {@code spill_count} (times the table was written
 * out), {@code spilled_rows} (group-state rows written), {@code spilled_bytes}; and
 * {@code spill_levels}, the levels that spilled (above 1 when a spilled partition did not fit).
 */
final class AggregateSpiller implements AutoCloseable {
    static final String SPILL_LEVELS = "spill_levels";
    /** Writes the states of groups {@code [from, from + count)} as a new batch the caller closes. */
    @FunctionalInterface
    interface StateBatches {
        VectorSchemaRoot batch(int from, int count);
    }

    private record Pending(SpillFile file, int depth) {}

    private final TaskContext context;
    private final String consumer;
    private final Schema schema;
    private final PartitionMetrics metrics;
    private final Deque<Pending> pending = new ArrayDeque<>();
    private SpillPartitions level;
    private int depth;
    private int levelsCounted;
    private BatchStream reading;

    /** @param schema the partial-state rows' schema: the group keys, then every aggregate's state columns */
    AggregateSpiller(TaskContext context, String consumer, Schema schema, PartitionMetrics metrics) {
        this.context = requireNonNull(context, "context is null");
        this.consumer = requireNonNull(consumer, "consumer is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    Schema schema() {
        return schema;
    }

    /** The level of the table being built: 0 for the operator's input. */
    int depth() {
        return depth;
    }

    /** Whether the table being built may spill (its level is not the last). */
    boolean canSpill() {
        return depth < SpillPartitions.MAX_DEPTH;
    }

    /** Whether the table being built has spilled. */
    boolean levelSpilled() {
        return level != null;
    }

    /** Whether any spilled partition still waits to be merged. */
    boolean hasPending() {
        return !pending.isEmpty();
    }

    /** Writes groups {@code [0, groups)} of the table being built, group {@code g} of hash {@code hashOfGroup(g)}. */
    void spill(int groups, StateBatches states, IntToLongFunction hashOfGroup) {
        if (!canSpill()) {
            throw new IllegalStateException("level " + depth + " may not spill");
        }
        if (level == null) {
            level = new SpillPartitions(context.spillDirectory(), consumer, schema, depth, context.allocator());
        }
        long bytes = 0;
        for (int from = 0; from < groups; from += context.batchSize()) {
            context.checkCancelled();
            int first = from;
            try (VectorSchemaRoot batch = states.batch(from, Math.min(context.batchSize(), groups - from))) {
                bytes += level.write(batch, row -> hashOfGroup.applyAsLong(first + row));
            }
        }
        SpillMetrics.record(metrics, bytes, groups);
        if (depth + 1 > levelsCounted) {
            metrics.addCounter(SPILL_LEVELS, depth + 1 - levelsCounted);
            levelsCounted = depth + 1;
        }
    }

    /** Ends the level being built, which spilled: its partitions are merged next, before any partition waiting already. */
    void finishLevel() {
        List<SpillFile> files;
        try {
            files = level.finish();
        } finally {
            level.close();
            level = null;
        }
        for (int i = files.size() - 1; i >= 0; i--) {
            pending.addFirst(new Pending(files.get(i), depth + 1));
        }
    }

    /**
     * Closes the partition read before and opens the next one to merge, whose level becomes
     * {@link #depth()}; null when none is left. The stream deletes its file when closed.
     */
    BatchStream nextPartition() {
        closeReading();
        Pending next = pending.pollFirst();
        if (next == null) {
            return null;
        }
        context.checkCancelled();
        depth = next.depth();
        reading = next.file().open(context.allocator());
        return reading;
    }

    private void closeReading() {
        if (reading != null) {
            BatchStream stream = reading;
            reading = null;
            stream.close();
        }
    }

    /** Deletes every file left: the one being read, those waiting, and the level's unfinished ones. */
    @Override
    public void close() {
        try {
            closeReading();
        } finally {
            try {
                while (!pending.isEmpty()) {
                    pending.pollFirst().file().delete();
                }
            } finally {
                if (level != null) {
                    level.close();
                    level = null;
                }
            }
        }
    }
}
