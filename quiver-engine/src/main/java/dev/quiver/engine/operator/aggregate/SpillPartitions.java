package dev.quiver.engine.operator.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Take;
import dev.quiver.engine.spill.SpillDirectory;
import dev.quiver.engine.spill.SpillFile;
import dev.quiver.engine.spill.SpillWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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

    private final SpillDirectory directory;
    private final String consumer;
    private final Schema schema;
    private final int depth;
    private final BufferAllocator allocator;
    private final SpillWriter[] writers = new SpillWriter[FAN_OUT];
    private final int[] counts = new int[FAN_OUT];
    private int[][] rows = new int[FAN_OUT][0];

    SpillPartitions(SpillDirectory directory, String consumer, Schema schema, int depth, BufferAllocator allocator) {
        this.directory = requireNonNull(directory, "directory is null");
        this.consumer = requireNonNull(consumer, "consumer is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        if (depth < 0 || depth >= MAX_DEPTH) {
            throw new IllegalArgumentException("spill depth " + depth + " outside [0, " + MAX_DEPTH + ")");
        }
        this.depth = depth;
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
        int count = states.getRowCount();
        if (rows[0].length < count) {
            rows = new int[FAN_OUT][count];
        }
        Arrays.fill(counts, 0);
        for (int i = 0; i < count; i++) {
            int p = partition(hashOfRow.applyAsLong(i), depth);
            rows[p][counts[p]++] = i;
        }
        long bytes = 0;
        for (int p = 0; p < FAN_OUT; p++) {
            if (counts[p] == 0) {
                continue;
            }
            SpillWriter writer = writer(p);
            long before = writer.bytes();
            if (counts[p] == count) {
                writer.write(states);
            } else {
                try (VectorSchemaRoot part = Take.take(states, rows[p], counts[p], allocator)) {
                    writer.write(part);
                }
            }
            bytes += writer.bytes() - before;
        }
        return bytes;
    }

    private SpillWriter writer(int p) {
        if (writers[p] == null) {
            writers[p] = directory.newFile(consumer + "-level" + depth + "-part" + p, schema);
        }
        return writers[p];
    }

    /**
     * Ends every file written, in partition order; on a failure the files already finished are
     * deleted (and {@link #close()} deletes the others).
     */
    List<SpillFile> finish() {
        List<SpillFile> files = new ArrayList<>(FAN_OUT);
        try {
            for (int p = 0; p < FAN_OUT; p++) {
                if (writers[p] != null) {
                    SpillFile file = writers[p].finish();
                    writers[p] = null;
                    files.add(file);
                }
            }
        } catch (RuntimeException | Error e) {
            files.forEach(SpillFile::delete);
            throw e;
        }
        return files;
    }

    /** Closes (and deletes) the files not {@link #finish() finished}. */
    @Override
    public void close() {
        RuntimeException first = null;
        for (int p = 0; p < FAN_OUT; p++) {
            if (writers[p] != null) {
                try {
                    writers[p].close();
                } catch (RuntimeException e) {
                    first = first == null ? e : first;
                }
                writers[p] = null;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
