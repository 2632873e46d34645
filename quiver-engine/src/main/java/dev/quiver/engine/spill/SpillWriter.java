package dev.quiver.engine.spill;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes one spill file: an Arrow IPC stream (schema, record batches with compressed bodies,
 * end-of-stream marker). {@link #finish()} closes it and gives the {@link SpillFile} to read it
 * back; {@link #close()} without finishing deletes it. I/O failures (a full disk) are
 * {@code SPILL_FAILED} errors naming the file.
 *
 * <p>Used by one thread.
 */
public final class SpillWriter implements AutoCloseable {
    private final SpillDirectory owner;
    private final Path path;
    private final FileChannel channel;
    private final WriteChannel out;
    private final CompressionCodec codec;
    private long rows;
    private boolean done;

    SpillWriter(SpillDirectory owner, Path path, FileChannel channel, Schema schema, CompressionCodec codec) throws IOException {
        this.owner = requireNonNull(owner, "owner is null");
        this.path = requireNonNull(path, "path is null");
        this.channel = requireNonNull(channel, "channel is null");
        this.codec = requireNonNull(codec, "codec is null");
        this.out = new WriteChannel(channel);
        try {
            MessageSerializer.serialize(out, requireNonNull(schema, "schema is null"));
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    /** Appends {@code batch} (which the caller still owns). */
    public void write(VectorSchemaRoot batch) {
        if (batch.getRowCount() == 0) {
            return;
        }
        try (ArrowRecordBatch record = new VectorUnloader(batch, true, codec, true).getRecordBatch()) {
            MessageSerializer.serialize(out, record);
        } catch (IOException | RuntimeException e) {
            throw SpillDirectory.failure("write spill file " + path, e);
        }
        rows += batch.getRowCount();
    }

    public long rows() {
        return rows;
    }

    /** Bytes written so far. */
    public long bytes() {
        return out.getCurrentPosition();
    }

    /** Ends the stream and closes the file; the result reads it back. */
    public SpillFile finish() {
        try {
            ArrowStreamWriter.writeEndOfStream(out, IpcOption.DEFAULT);
            channel.close();
        } catch (IOException | RuntimeException e) {
            throw SpillDirectory.failure("write spill file " + path, e);
        }
        done = true;
        return new SpillFile(owner, path, rows, out.getCurrentPosition());
    }

    /** Closes the file; unless {@link #finish() finished}, also deletes it. */
    @Override
    public void close() {
        if (done) {
            return;
        }
        done = true;
        try {
            channel.close();
        } catch (IOException e) {
            // deleting it below is what matters
        }
        owner.delete(path);
    }
}
