package dev.quiver.engine.source.files;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes batches to one data file (Parquet, CSV or Arrow IPC) or to a tree of them
 * ({@link HivePartitionedWriter}). One thread writes; the caller keeps ownership of each batch.
 * {@link #close()} completes the output; a writer that failed deletes what it wrote.
 */
public interface BatchFileWriter extends AutoCloseable {
    /** Appends a batch whose column types are the writer's. */
    void write(VectorSchemaRoot batch);

    /** Rows written so far. */
    long rowCount();

    /** Completes the file (footer, last buffer); idempotent. */
    @Override
    void close();
}
