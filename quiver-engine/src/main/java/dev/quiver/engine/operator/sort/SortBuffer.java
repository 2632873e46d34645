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
    /**
     * Heap bytes per row of sorting beyond the key columns: the order, the (batch, row) pair of
     * every row, and the sorted pair arrays.
     */
    private static final long SORT_BYTES_PER_ROW = 20;

    private long arrowBytes;
    /** Heap bytes reserved for sorting (the key columns as arrays and the order's arrays). */
    private long sortHeapBytes;
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

    boolean isEmpty() {
        return rows == 0;
    }

    /** Takes ownership of {@code batch}; fails with ResourcesExhaustedException (closing it) if the pool says no. */
    void add(VectorSchemaRoot batch) {
        add(batch, false);
    }

    /**
     * Takes ownership of {@code batch} if the pool grants what holding and sorting it needs; otherwise
     * returns false and leaves the batch to the caller (who may spill this buffer and try again).
     */
    boolean tryAdd(VectorSchemaRoot batch) {
        return add(batch, true);
    }

    /** The bytes the pool would have to grant to add {@code batch}, as {@link #tryAdd} reckons them. */
    long bytesToAdd(VectorSchemaRoot batch) {
        return Batches.sizeInBytes(batch) + SORT_BYTES_PER_ROW * batch.getRowCount();
    }

    private boolean add(VectorSchemaRoot batch, boolean refusable) {
        if (batch.getRowCount() == 0) {
            batch.close();
            return true;
        }
        List<FieldVector> owned = new ArrayList<>();
        try {
            List<FieldVector> vectors = RowComparator.keyVectors(keys, batch, allocator, owned);
            long bytes = Batches.sizeInBytes(batch);
            long sortBytes = SORT_BYTES_PER_ROW * batch.getRowCount();
            for (FieldVector vector : owned) {
                bytes += vector.getBufferSize();
            }
            for (FieldVector vector : vectors) {
                sortBytes += SortColumn.estimateBytes(vector.getValueCount(), vector instanceof org.apache.arrow.vector.BaseVariableWidthVector v
                        ? v.getDataBuffer().capacity() : 0);
            }
            if (refusable) {
                if (!reservation.tryGrow(bytes + sortBytes)) {
                    owned.forEach(FieldVector::close);
                    return false;
                }
            } else {
                reservation.grow(bytes + sortBytes);
            }
            arrowBytes += bytes;
            sortHeapBytes += sortBytes;
            batches.add(batch);
            keyVectors.add(vectors);
            ownedKeyVectors.addAll(owned);
            rows += batch.getRowCount();
            return true;
        } catch (RuntimeException e) {
            owned.forEach(FieldVector::close);
            batch.close();
            throw e;
        }
    }

    /** The rows in sorted order, as parallel arrays of batch and row numbers. */
    Sorted sort() {
        // what sorting needs was reserved as batches were added
        reservation.resize(arrowBytes + sortHeapBytes);
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
        sortHeapBytes = 8L * rows;
        reservation.resize(arrowBytes + sortHeapBytes);
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
        clear();
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
        sortHeapBytes = 0;
        rows = 0;
    }

    /** Releases every batch and everything reserved; the buffer can be filled again (after a spill). */
    void clear() {
        release();
        reservation.free();
    }

    @Override
    public void close() {
        clear();
    }

    /** A sorted order: the {@code i}-th row is row {@code rowOf[i]} of batch {@code batchOf[i]}. */
    record Sorted(int[] batchOf, int[] rowOf) {
        int size() {
            return batchOf.length;
        }
    }
}
