package dev.quiver.engine.source.memory;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.kernel.Vectors;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * One batch an {@link InMemoryTable} holds. It never changes; readers get vectors that share its
 * buffers by reference count ({@link #share}), or its columns as Arrow IPC bytes for a worker
 * ({@link #toIpc}). {@link #release()} (DROP TABLE) frees it: a reader that started before keeps
 * what it shared, a later one fails with TABLE_NOT_FOUND. Thread-safe.
 */
public final class StoredBatch {
    private final String table;
    private final int rowCount;
    private final long[] columnBytes;
    private final long[] nullCounts;
    private VectorSchemaRoot batch;

    /** Takes ownership of {@code batch}, whose buffers should be compact (e.g. a {@link dev.quiver.engine.batch.Take} copy). */
    public StoredBatch(String table, VectorSchemaRoot batch) {
        this.table = requireNonNull(table, "table is null");
        this.batch = requireNonNull(batch, "batch is null");
        this.rowCount = batch.getRowCount();
        List<FieldVector> vectors = batch.getFieldVectors();
        this.columnBytes = new long[vectors.size()];
        this.nullCounts = new long[vectors.size()];
        for (int c = 0; c < vectors.size(); c++) {
            columnBytes[c] = vectors.get(c).getBufferSize();
            nullCounts[c] = vectors.get(c).getNullCount();
        }
    }

    public int rowCount() {
        return rowCount;
    }

    /** Bytes of all its buffers: what the table reserves for it. */
    public long bytes() {
        long bytes = 0;
        for (long column : columnBytes) {
            bytes += column;
        }
        return bytes;
    }

    /** Bytes of the given columns' buffers. */
    public long bytes(List<Integer> columns) {
        long bytes = 0;
        for (int column : columns) {
            bytes += columnBytes[column];
        }
        return bytes;
    }

    public long nullCount(int column) {
        return nullCounts[column];
    }

    /** The given columns as a new batch (named by {@code fields}) sharing this batch's buffers; the caller closes it. */
    public synchronized VectorSchemaRoot share(List<Integer> columns, List<Field> fields, BufferAllocator allocator) {
        VectorSchemaRoot held = held();
        List<FieldVector> vectors = new ArrayList<>(columns.size());
        try {
            for (int column : columns) {
                vectors.add(Vectors.share(held.getVector(column), rowCount, allocator));
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new VectorSchemaRoot(fields, vectors, rowCount);
    }

    /** The given columns as one Arrow IPC record batch message (the schema travels separately). */
    public synchronized byte[] toIpc(List<Integer> columns, List<Field> fields) {
        VectorSchemaRoot held = held();
        VectorSchemaRoot view = new VectorSchemaRoot(fields, columns.stream().map(held::getVector).toList(), rowCount);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ArrowRecordBatch record = new VectorUnloader(view).getRecordBatch()) {
            MessageSerializer.serialize(new WriteChannel(Channels.newChannel(bytes)), record);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "cannot serialize a batch of table " + table + ": " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }

    /** The non-null values among the first {@code maxRows} rows of {@code column}, for distinct-count sampling. */
    public synchronized List<Object> nonNullValues(int column, int maxRows) {
        FieldVector vector = held().getVector(column);
        List<Object> values = new ArrayList<>();
        for (int r = 0; r < Math.min(maxRows, rowCount); r++) {
            if (!vector.isNull(r)) {
                values.add(VectorValues.get(vector, r));
            }
        }
        return values;
    }

    /** Frees the buffers (readers holding shares keep theirs). Idempotent. */
    public synchronized void release() {
        if (batch != null) {
            batch.close();
            batch = null;
        }
    }

    /** Whether {@link #release()} ran. */
    public synchronized boolean isReleased() {
        return batch == null;
    }

    private VectorSchemaRoot held() {
        if (batch == null) {
            throw new QuiverException(ErrorCode.TABLE_NOT_FOUND, "Table " + table + " was dropped while a query read it");
        }
        return batch;
    }

    @Override
    public String toString() {
        return "StoredBatch{table=" + table + ", rows=" + rowCount + ", bytes=" + bytes() + "}";
    }
}
