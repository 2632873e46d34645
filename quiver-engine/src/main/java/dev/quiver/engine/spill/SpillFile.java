package dev.quiver.engine.spill;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.compression.QuiverCompressionFactory;
import dev.quiver.engine.execution.BatchStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

/**
 * A finished spill file: {@link #open} reads its batches back in the order they were written;
 * {@link #delete} removes it (the stream it opened deletes it when closed, so a file is read once).
 */
public final class SpillFile {
    private final SpillDirectory owner;
    private final Path path;
    private final long rows;
    private final long bytes;

    SpillFile(SpillDirectory owner, Path path, long rows, long bytes) {
        this.owner = requireNonNull(owner, "owner is null");
        this.path = requireNonNull(path, "path is null");
        this.rows = rows;
        this.bytes = bytes;
    }

    public Path path() {
        return path;
    }

    public long rows() {
        return rows;
    }

    /** Its size as written (compressed). */
    public long bytes() {
        return bytes;
    }

    /** Reads the file's batches into {@code allocator}, each owned by the caller; closing the stream deletes the file. */
    public BatchStream open(BufferAllocator allocator) {
        try {
            return new Reader(FileChannel.open(path, StandardOpenOption.READ), allocator);
        } catch (IOException | RuntimeException e) {
            throw SpillDirectory.failure("read spill file " + path, e);
        }
    }

    public void delete() {
        owner.delete(path);
    }

    @Override
    public String toString() {
        return path + " (" + rows + " rows)";
    }

    private final class Reader implements BatchStream {
        private final ArrowStreamReader reader;
        private final Schema schema;
        private boolean closed;

        Reader(FileChannel channel, BufferAllocator allocator) throws IOException {
            this.reader = new ArrowStreamReader(channel, allocator, new QuiverCompressionFactory());
            try {
                this.schema = reader.getVectorSchemaRoot().getSchema();
            } catch (IOException | RuntimeException e) {
                reader.close();
                throw e;
            }
        }

        @Override
        public Schema schema() {
            return schema;
        }

        @Override
        public VectorSchemaRoot next() {
            if (closed) {
                return null;
            }
            try {
                if (!reader.loadNextBatch()) {
                    close();
                    return null;
                }
                VectorSchemaRoot loaded = reader.getVectorSchemaRoot();
                List<FieldVector> vectors = new ArrayList<>(loaded.getFieldVectors().size());
                for (FieldVector vector : loaded.getFieldVectors()) {
                    TransferPair transfer = vector.getTransferPair(vector.getAllocator());
                    transfer.transfer();
                    vectors.add((FieldVector) transfer.getTo());
                }
                return new VectorSchemaRoot(loaded.getSchema().getFields(), vectors, loaded.getRowCount());
            } catch (IOException | RuntimeException e) {
                throw SpillDirectory.failure("read spill file " + path, e);
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                reader.close();
            } catch (IOException e) {
                // the file is deleted below either way
            } finally {
                delete();
            }
        }
    }
}
