package dev.quiver.engine.operator.sort;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.batch.Take;
import dev.quiver.engine.memory.MemoryReservation;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The batches one sort partition holds, with their key vectors, accounted in the partition's
 * memory reservation. It sorts them into an order of (batch, row) pairs and gathers rows in that
 * order; for top-k it compacts itself to the first k rows.
 */
final class SortBuffer implements AutoCloseable {
    private final Schema schema;
    private final List<SortKey> keys;
    private final BufferAllocator allocator;
    private final MemoryReservation reservation;
    private final List<VectorSchemaRoot> batches = new ArrayList<>();
    private final List<List<FieldVector>> keyVectors = new ArrayList<>();
    private final List<FieldVector> ownedKeyVectors = new ArrayList<>();
    private long arrowBytes;
    private int rows;
    /** After a top-k compaction: the keys of the kept rows, whose last row is the worst a later row must beat. */
    private RowComparator boundary;
    private int boundaryRow;

    SortBuffer(Schema schema, List<SortKey> keys, BufferAllocator allocator, MemoryReservation reservation) {
        this.schema = requireNonNull(schema, "schema is null");
        this.keys = requireNonNull(keys, "keys is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.reservation = requireNonNull(reservation, "reservation is null");
    }

    int rows() {
        return rows;
    }

    /** Takes ownership of {@code batch}; fails with ResourcesExhaustedException (closing it) if the pool says no. */
    void add(VectorSchemaRoot batch) {
        if (batch.getRowCount() == 0) {
            batch.close();
            return;
        }
        List<FieldVector> owned = new ArrayList<>();
        try {
            List<FieldVector> vectors = RowComparator.keyVectors(keys, batch, allocator, owned);
            long bytes = Batches.sizeInBytes(batch);
            for (FieldVector vector : owned) {
                bytes += vector.getBufferSize();
            }
            reservation.grow(bytes);
            arrowBytes += bytes;
            batches.add(batch);
            keyVectors.add(vectors);
            ownedKeyVectors.addAll(owned);
            rows += batch.getRowCount();
        } catch (RuntimeException e) {
            owned.forEach(FieldVector::close);
            batch.close();
            throw e;
        }
    }

    /** The rows in sorted order, as parallel arrays of batch and row numbers. */
    Sorted sort() {
        long heapBytes = 12L * rows;
        for (List<FieldVector> vectors : keyVectors) {
            for (FieldVector vector : vectors) {
                heapBytes += SortColumn.estimateBytes(vector.getValueCount(), vector instanceof org.apache.arrow.vector.BaseVariableWidthVector v
                        ? v.getDataBuffer().capacity() : 0);
            }
        }
        reservation.resize(arrowBytes + heapBytes);
        RowComparator comparator = RowComparator.build(keys, keyVectors);
        int[] order = new int[rows];
        for (int i = 0; i < rows; i++) {
            order[i] = i;
        }
        IntSort.sort(order, rows, comparator::compare);
        int[] batchOfRow = new int[rows];
        int[] rowInBatch = new int[rows];
        int global = 0;
        for (int b = 0; b < batches.size(); b++) {
            int count = batches.get(b).getRowCount();
            for (int r = 0; r < count; r++, global++) {
                batchOfRow[global] = b;
                rowInBatch[global] = r;
            }
        }
        int[] batchOf = new int[rows];
        int[] rowOf = new int[rows];
        for (int i = 0; i < rows; i++) {
            batchOf[i] = batchOfRow[order[i]];
            rowOf[i] = rowInBatch[order[i]];
        }
        reservation.resize(arrowBytes + 8L * rows);
        return new Sorted(batchOf, rowOf);
    }

    /** Rows {@code from .. from + count} of a sorted order as a new batch. */
    VectorSchemaRoot take(Sorted sorted, int from, int count) {
        return MultiTake.take(schema, batches, sorted.batchOf(), sorted.rowOf(), from, count, allocator);
    }

    /**
     * Adds {@code batch} for a top-{@code limit} sort: once a compaction has found the current
     * k-th row, only rows that sort before it are kept, so most batches cost one comparison per row.
     */
    void addTopK(VectorSchemaRoot batch, int limit, int batchSize) {
        VectorSchemaRoot candidates = boundary == null ? batch : beatingBoundary(batch);
        if (candidates == null) {
            return;
        }
        add(candidates);
        if (rows >= limit + batchSize) {
            compact(limit);
        }
    }

    /** The rows of {@code batch} that sort before the boundary row (the batch itself, a new batch, or null). */
    private VectorSchemaRoot beatingBoundary(VectorSchemaRoot batch) {
        List<FieldVector> owned = new ArrayList<>();
        try {
            RowComparator comparator = RowComparator.build(keys, List.of(RowComparator.keyVectors(keys, batch, allocator, owned)));
            int count = batch.getRowCount();
            int[] selected = new int[count];
            int kept = 0;
            for (int row = 0; row < count; row++) {
                if (comparator.compare(row, boundary, boundaryRow) < 0) {
                    selected[kept++] = row;
                }
            }
            if (kept == count) {
                VectorSchemaRoot all = batch;
                batch = null;
                return all;
            }
            return kept == 0 ? null : Take.take(batch, selected, kept, allocator);
        } finally {
            owned.forEach(FieldVector::close);
            if (batch != null) {
                batch.close();
            }
        }
    }

    /** Keeps only the first {@code limit} rows in sort order (top-k), releasing the rest. */
    void compact(int limit) {
        if (rows <= limit) {
            return;
        }
        Sorted sorted = sort();
        VectorSchemaRoot kept = take(sorted, 0, limit);
        release();
        reservation.free();
        add(kept);
        boundary = RowComparator.build(keys, keyVectors);
        boundaryRow = limit - 1;
    }

    /** Releases every batch (the reservation is left to its owner). */
    private void release() {
        ownedKeyVectors.forEach(FieldVector::close);
        ownedKeyVectors.clear();
        batches.forEach(VectorSchemaRoot::close);
        batches.clear();
        keyVectors.clear();
        arrowBytes = 0;
        rows = 0;
    }

    @Override
    public void close() {
        release();
        reservation.free();
    }

    /** A sorted order: the {@code i}-th row is row {@code rowOf[i]} of batch {@code batchOf[i]}. */
    record Sorted(int[] batchOf, int[] rowOf) {
        int size() {
            return batchOf.length;
        }
    }
}
