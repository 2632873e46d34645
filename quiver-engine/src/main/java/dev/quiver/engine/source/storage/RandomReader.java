package dev.quiver.engine.source.storage;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Positional reads of one file of known size: what a Parquet reader needs (the footer at the end,
 * then the column chunks it wants). On an object store each read is one ranged request; a reader
 * of several ranges at once ({@link #readRanges}) may fetch them in parallel.
 *
 * <p>Not thread-safe: one reader serves one stream. Closing releases what it holds.
 */
public interface RandomReader extends Closeable {
    /** The file's size in bytes. */
    long size();

    /**
     * Fills {@code buffer} (from its position to its limit) with the file's bytes from
     * {@code position}.
     *
     * @throws java.io.EOFException when the file ends first
     */
    void readFully(long position, ByteBuffer buffer) throws IOException;

    /** One range of the file to read into its own buffer. */
    record Range(long position, ByteBuffer buffer) {}

    /** Reads every range; the default reads them one after the other. */
    default void readRanges(List<Range> ranges) throws IOException {
        for (Range range : ranges) {
            readFully(range.position(), range.buffer());
        }
    }

    /** Whether {@link #readRanges} reads ranges in parallel (so that a caller hands it several at once). */
    default boolean parallelRanges() {
        return false;
    }
}
