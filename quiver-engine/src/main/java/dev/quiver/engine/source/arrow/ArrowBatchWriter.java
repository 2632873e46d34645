package dev.quiver.engine.source.arrow;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.BatchFileWriter;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes batches to one Arrow IPC file (the file format, uncompressed), one record batch per
 * batch written, so the batches' size decides the file's scan splits. The writer references the
 * batches' buffers while it writes them and never takes ownership of a batch.
 */
public final class ArrowBatchWriter implements BatchFileWriter {
    private final Path path;
    private final Schema schema;
    private final FileChannel channel;
    private final VectorSchemaRoot root;
    private final ArrowFileWriter writer;
    private long rowCount;
    private int batchCount;
    private boolean closed;

    private ArrowBatchWriter(Path path, Schema schema, FileChannel channel, VectorSchemaRoot root, ArrowFileWriter writer) {
        this.path = path;
        this.schema = schema;
        this.channel = channel;
        this.root = root;
        this.writer = writer;
    }

    /** Creates or truncates {@code path}; {@code allocator} holds the writer's (empty) root. */
    public static ArrowBatchWriter create(Path path, Schema schema, BufferAllocator allocator) {
        requireNonNull(path, "path is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(allocator, "allocator is null");
        FileChannel channel = null;
        VectorSchemaRoot root = null;
        try {
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
            root = VectorSchemaRoot.create(schema, allocator);
            ArrowFileWriter writer = new ArrowFileWriter(root, null, channel);
            writer.start();
            return new ArrowBatchWriter(path, schema, channel, root, writer);
        } catch (IOException | RuntimeException e) {
            if (root != null) {
                root.close();
            }
            closeQuietly(channel);
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot write Arrow IPC file " + path + ": " + e.getMessage(), e);
        }
    }

    public Path path() {
        return path;
    }

    public Schema schema() {
        return schema;
    }

    public long rowCount() {
        return rowCount;
    }

    public int batchCount() {
        return batchCount;
    }

    /** Appends {@code batch} (same columns as the writer's schema) as one record batch; empty batches are skipped. */
    public void write(VectorSchemaRoot batch) {
        requireNonNull(batch, "batch is null");
        if (batch.getRowCount() == 0) {
            return;
        }
        if (!sameTypes(batch.getSchema(), schema)) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT,
                    "batch with columns " + batch.getSchema() + " does not match Arrow file " + path + " with " + schema);
        }
        try (ArrowRecordBatch record = new VectorUnloader(batch).getRecordBatch()) {
            new VectorLoader(root).load(record);
            writer.writeBatch();
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot write Arrow IPC file " + path + ": " + e.getMessage(), e);
        } finally {
            // drop the root's references to the batch's buffers
            root.clear();
        }
        rowCount += batch.getRowCount();
        batchCount++;
    }

    /** Columns match by position and type; names and nullability are the writer's. */
    private static boolean sameTypes(Schema a, Schema b) {
        if (a.getFields().size() != b.getFields().size()) {
            return false;
        }
        for (int i = 0; i < a.getFields().size(); i++) {
            if (!a.getFields().get(i).getType().equals(b.getFields().get(i).getType())) {
                return false;
            }
        }
        return true;
    }

    /** Writes the footer and closes the file. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            writer.end();
            writer.close();
        } catch (IOException | RuntimeException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot finish Arrow IPC file " + path + ": " + e.getMessage(), e);
        } finally {
            root.close();
            closeQuietly(channel);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // already failing: the first error is the one to report
            }
        }
    }
}
