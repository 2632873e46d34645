package dev.quiver.engine.source.arrow;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Reads the record batches of one scan partition in order. The IPC reader loads every batch into
 * one root it reuses, so each batch's projected vectors are transferred into a fresh root that
 * the caller owns; a file stays open while consecutive splits come from it.
 */
final class ArrowPartitionStream implements BatchStream {
    private final Schema schema;
    private final List<Integer> projection;
    private final List<ArrowBlockSplit> splits;
    private final BufferAllocator allocator;
    private final PartitionMetrics metrics;
    private int nextSplit;
    private Path filePath;
    private FileChannel channel;
    private ArrowFileReader reader;
    private boolean closed;

    ArrowPartitionStream(Schema schema, List<Integer> projection, List<ArrowBlockSplit> splits, BufferAllocator allocator,
            PartitionMetrics metrics) {
        this.schema = requireNonNull(schema, "schema is null");
        this.projection = List.copyOf(requireNonNull(projection, "projection is null"));
        this.splits = List.copyOf(requireNonNull(splits, "splits is null"));
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public VectorSchemaRoot next() {
        long start = System.nanoTime();
        try {
            while (!closed && nextSplit < splits.size()) {
                ArrowBlockSplit split = splits.get(nextSplit++);
                if (split.rowCount() == 0) {
                    continue;
                }
                if (projection.isEmpty()) {
                    // count(*): the row count is known from the metadata, no body to read
                    return new VectorSchemaRoot(List.of(), List.of(), (int) split.rowCount());
                }
                return read(split);
            }
            close();
            return null;
        } finally {
            metrics.addElapsedCompute(System.nanoTime() - start);
        }
    }

    private VectorSchemaRoot read(ArrowBlockSplit split) {
        List<FieldVector> vectors = new ArrayList<>(projection.size());
        try {
            if (!split.file().equals(filePath)) {
                openFile(split.file());
            }
            List<ArrowBlock> blocks = reader.getRecordBlocks();
            if (split.index() >= blocks.size()) {
                throw new QuiverException(ErrorCode.SOURCE_ERROR, "Arrow IPC file " + split.file()
                        + " changed since the table was opened: it has " + blocks.size() + " record batches, expected batch " + split.index());
            }
            if (!reader.loadRecordBatch(blocks.get(split.index()))) {
                throw new QuiverException(ErrorCode.SOURCE_ERROR, "Arrow IPC file " + split.file() + " ended before record batch " + split.index());
            }
            VectorSchemaRoot loaded = reader.getVectorSchemaRoot();
            for (int c = 0; c < projection.size(); c++) {
                FieldVector source = loaded.getVector(projection.get(c));
                Field field = schema.getFields().get(c);
                TransferPair transfer = source.getTransferPair(field, allocator);
                transfer.transfer();
                vectors.add((FieldVector) transfer.getTo());
            }
            return new VectorSchemaRoot(schema.getFields(), vectors, loaded.getRowCount());
        } catch (IOException | RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw failure(split, e);
        }
    }

    private void openFile(Path path) throws IOException {
        closeFile();
        channel = FileChannel.open(path, StandardOpenOption.READ);
        filePath = path;
        reader = new ArrowFileReader(channel, allocator);
    }

    private static QuiverException failure(ArrowBlockSplit split, Exception e) {
        if (e instanceof QuiverException quiver) {
            return quiver;
        }
        return new QuiverException(ErrorCode.SOURCE_ERROR, "cannot read record batch " + split.index() + " of Arrow IPC file "
                + split.file() + ": " + e.getMessage(), e);
    }

    private void closeFile() {
        filePath = null;
        try {
            if (reader != null) {
                // closes the channel and frees the buffers of the last batch's unprojected columns
                reader.close();
            } else if (channel != null) {
                channel.close();
            }
        } catch (IOException ignored) {
            // a read-only file: nothing is lost if its close fails
        } finally {
            reader = null;
            channel = null;
        }
    }

    @Override
    public void close() {
        closed = true;
        closeFile();
    }
}
