package dev.quiver.engine.operator.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.operator.exchange.PartitionSplit;
import dev.quiver.engine.spill.PartitionedSpillWriter;
import dev.quiver.engine.spill.SpillDirectory;
import dev.quiver.engine.spill.SpillFile;
import java.util.List;
import java.util.Objects;
import java.util.function.IntToLongFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The spill files of one level of a spilling hash aggregate: partial-state rows split into
 * {@link #FAN_OUT} files by {@link #partition bits of their group hash} that depend on the level,
 * so that the groups of one file, read back and spilling again, spread over the next level's
 * files. A file stays open for writing while the level's table spills again and again, so a level
 * makes at most {@link #FAN_OUT} files.
 *
 * <p>The group hash ({@link GroupHashTable}, seeded unlike the partition hash of
 * {@link dev.quiver.engine.operator.exchange.RepartitionExec}) is used from its top bits down; its
 * low bits choose the hash table slot, so the groups of one file still spread over a table.
 *
 * <p>Used by one thread.
 */
final class SpillPartitions implements AutoCloseable {
    static final int FAN_OUT = 16;
    private static final int BITS = Integer.numberOfTrailingZeros(FAN_OUT);
    /** Levels that may spill (0 is the operator's input); a table of level {@code MAX_DEPTH} that does not fit fails. */
    static final int MAX_DEPTH = 3;

    private final PartitionedSpillWriter files;
    private final int depth;
    private final BufferAllocator allocator;

    SpillPartitions(SpillDirectory directory, String consumer, Schema schema, int depth, BufferAllocator allocator) {
        requireNonNull(consumer, "consumer is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        if (depth < 0 || depth >= MAX_DEPTH) {
            throw new IllegalArgumentException("spill depth " + depth + " outside [0, " + MAX_DEPTH + ")");
        }
        this.depth = depth;
        this.files = new PartitionedSpillWriter(directory, consumer + "-level" + depth, requireNonNull(schema, "schema is null"), FAN_OUT);
    }

    /** The file of level {@code depth} a group of hash {@code hash} goes to. */
    static int partition(long hash, int depth) {
        return (int) (hash >>> (Long.SIZE - BITS * (depth + 1))) & (FAN_OUT - 1);
    }

    /**
     * Appends each row of {@code states} (which the caller still owns) to its partition's file,
     * row {@code i} having group hash {@code hashOfRow(i)}; returns the bytes written.
     */
    long write(VectorSchemaRoot states, IntToLongFunction hashOfRow) {
        int[] partitions = new int[states.getRowCount()];
        for (int i = 0; i < partitions.length; i++) {
            partitions[i] = partition(hashOfRow.applyAsLong(i), depth);
        }
        PartitionSplit split = PartitionSplit.of(partitions, FAN_OUT);
        long bytes = 0;
        for (int p = 0; p < FAN_OUT; p++) {
            if (split.count(p) == 0) {
                continue;
            }
            try (VectorSchemaRoot part = split.take(states, p, allocator)) {
                bytes += files.write(p, part);
            }
        }
        return bytes;
    }

    /**
     * Ends every file written, in partition order; on a failure the files already finished are
     * deleted (and {@link #close()} deletes the others).
     */
    List<SpillFile> finish() {
        return files.finish().stream().filter(Objects::nonNull).toList();
    }

    /** Closes (and deletes) the files not {@link #finish() finished}. */
    @Override
    public void close() {
        files.close();
    }
}
