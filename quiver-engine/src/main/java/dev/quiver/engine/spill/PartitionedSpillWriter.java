package dev.quiver.engine.spill;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One spill file per partition, for an operator that splits what it spills by a hash of its keys
 * (a hash aggregate's groups, a grace join's rows). A partition's file is opened when its first
 * batch arrives and stays open while the operator spills again, so one split makes at most one
 * file per partition. {@link #finish()} hands the files over; {@link #close()} before that deletes
 * whatever was written.
 *
 * <p>Used by one thread.
 */
public final class PartitionedSpillWriter implements AutoCloseable {
    private final SpillDirectory directory;
    private final String name;
    private final Schema schema;
    private final SpillWriter[] writers;
    private boolean finished;

    /** @param name names the files: {@code name-pN} for partition {@code N} */
    public PartitionedSpillWriter(SpillDirectory directory, String name, Schema schema, int partitions) {
        this.directory = requireNonNull(directory, "directory is null");
        this.name = requireNonNull(name, "name is null");
        this.schema = requireNonNull(schema, "schema is null");
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be positive: " + partitions);
        }
        this.writers = new SpillWriter[partitions];
    }

    /** Appends {@code batch} (which the caller still owns) to {@code partition}'s file; returns the bytes written. */
    public long write(int partition, VectorSchemaRoot batch) {
        if (finished) {
            throw new IllegalStateException("spill files of " + name + " already finished");
        }
        if (writers[partition] == null) {
            writers[partition] = directory.newFile(name + "-p" + partition, schema);
        }
        SpillWriter writer = writers[partition];
        long before = writer.bytes();
        writer.write(batch);
        return writer.bytes() - before;
    }

    /**
     * Ends every file: one per partition, in order, null where nothing was written; the caller owns
     * (and deletes) them. On a failure the files already finished are deleted, and {@link #close()}
     * deletes the others.
     */
    public List<SpillFile> finish() {
        List<SpillFile> files = new ArrayList<>(writers.length);
        try {
            for (int p = 0; p < writers.length; p++) {
                SpillWriter writer = writers[p];
                files.add(writer == null ? null : writer.finish());
                writers[p] = null;
            }
        } catch (RuntimeException | Error e) {
            files.stream().filter(file -> file != null).forEach(SpillFile::delete);
            throw e;
        }
        finished = true;
        return files;
    }

    /** Closes and deletes the files not {@link #finish() finished}. */
    @Override
    public void close() {
        RuntimeException first = null;
        for (int p = 0; p < writers.length; p++) {
            if (writers[p] == null) {
                continue;
            }
            try {
                writers[p].close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
            writers[p] = null;
        }
        if (first != null) {
            throw first;
        }
    }
}
