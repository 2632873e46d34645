package dev.quiver.engine.operator.sort;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.memory.MemoryReservation;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Merges streams that are each sorted by {@code keys} into batches in one sorted order: a heap of
 * cursors, one per stream, holding the stream's current batch; each output batch is gathered from
 * the batches it drew rows from. Rows that compare equal come from the lower-numbered stream first,
 * so merging the runs of a stable sort in the order they were made keeps it stable.
 *
 * <p>With a reservation, the batches the cursors hold are accounted in it (a merge of spilled runs);
 * a merge of live partitions (SortPreservingMergeExec) holds at most one batch per input and none.
 * Closing closes every input. Used by one thread.
 */
public final class SortedMerge implements AutoCloseable {
    private final Schema schema;
    private final List<SortKey> keys;
    private final BufferAllocator allocator;
    private final MemoryReservation reservation;
    private final List<Cursor> cursors = new ArrayList<>();
    private final PriorityQueue<Cursor> heap = new PriorityQueue<>(Cursor::compareTo);
    private final List<VectorSchemaRoot> chunkBatches = new ArrayList<>();
    private final List<Cursor> retired = new ArrayList<>();
    private boolean started;
    private boolean closed;

    /** @param reservation where the held batches are accounted, or null not to account them */
    public SortedMerge(Schema schema, List<SortKey> keys, List<BatchStream> inputs, BufferAllocator allocator, MemoryReservation reservation) {
        this.schema = requireNonNull(schema, "schema is null");
        this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.reservation = reservation;
        for (BatchStream input : requireNonNull(inputs, "inputs is null")) {
            cursors.add(new Cursor(cursors.size(), input));
        }
    }

    /** The next at most {@code maxRows} rows in order, or null when every input is exhausted. */
    public VectorSchemaRoot next(int maxRows) {
        if (closed) {
            return null;
        }
        if (!started) {
            started = true;
            for (Cursor cursor : cursors) {
                if (cursor.advance()) {
                    heap.add(cursor);
                }
            }
        }
        if (maxRows <= 0 || heap.isEmpty()) {
            return null;
        }
        int[] batchOf = new int[maxRows];
        int[] rowOf = new int[maxRows];
        int rows = 0;
        try {
            while (rows < maxRows && !heap.isEmpty()) {
                Cursor cursor = heap.poll();
                if (cursor.chunkIndex < 0) {
                    cursor.chunkIndex = chunkBatches.size();
                    chunkBatches.add(cursor.batch);
                }
                batchOf[rows] = cursor.chunkIndex;
                rowOf[rows] = cursor.position;
                rows++;
                cursor.position++;
                if (cursor.position < cursor.batch.getRowCount()) {
                    heap.add(cursor);
                } else {
                    // its batch is still needed for this chunk's gather: keep it until then
                    cursor.retire();
                    retired.add(cursor);
                    if (cursor.advance()) {
                        heap.add(cursor);
                    }
                }
            }
            return MultiTake.take(schema, chunkBatches, batchOf, rowOf, 0, rows, allocator);
        } finally {
            chunkBatches.clear();
            for (Cursor cursor : cursors) {
                cursor.chunkIndex = -1;
            }
            retired.forEach(Cursor::releaseRetired);
            retired.clear();
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        heap.clear();
        retired.forEach(Cursor::releaseRetired);
        retired.clear();
        RuntimeException first = null;
        for (Cursor cursor : cursors) {
            try {
                cursor.close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** One input's current batch and the position of its next row. */
    private final class Cursor {
        final int index;
        final BatchStream input;
        final List<FieldVector> ownedKeys = new ArrayList<>();
        final List<AutoCloseable> retiredResources = new ArrayList<>();
        VectorSchemaRoot batch;
        long batchBytes;
        long retiredBytes;
        RowComparator comparator;
        int position;
        int chunkIndex = -1;

        Cursor(int index, BatchStream input) {
            this.index = index;
            this.input = input;
        }

        /** Moves to the input's next non-empty batch; false at its end. */
        boolean advance() {
            VectorSchemaRoot next;
            while ((next = input.next()) != null) {
                if (next.getRowCount() == 0) {
                    next.close();
                    continue;
                }
                // a merge of live partitions accounts nothing, so it need not sum each batch's buffers
                long bytes = 0;
                if (reservation != null) {
                    bytes = Batches.sizeInBytes(next);
                    try {
                        reservation.grow(bytes);
                    } catch (RuntimeException e) {
                        next.close();
                        throw e;
                    }
                }
                batch = next;
                batchBytes = bytes;
                position = 0;
                chunkIndex = -1;
                comparator = RowComparator.build(keys, List.of(RowComparator.keyVectors(keys, next, allocator, ownedKeys)));
                return true;
            }
            return false;
        }

        int compareTo(Cursor other) {
            int result = comparator.compare(position, other.comparator, other.position);
            return result != 0 ? result : Integer.compare(index, other.index);
        }

        /** Sets the exhausted batch aside, to release once the chunk drawing from it is gathered. */
        void retire() {
            retiredResources.add(batch);
            retiredResources.addAll(ownedKeys);
            retiredBytes += batchBytes;
            ownedKeys.clear();
            batch = null;
            batchBytes = 0;
            comparator = null;
        }

        void releaseRetired() {
            for (AutoCloseable resource : retiredResources) {
                try {
                    resource.close();
                } catch (Exception e) {
                    throw new IllegalStateException("closing a merged batch failed", e);
                }
            }
            retiredResources.clear();
            if (reservation != null) {
                reservation.shrink(retiredBytes);
            }
            retiredBytes = 0;
        }

        void close() {
            releaseRetired();
            ownedKeys.forEach(FieldVector::close);
            ownedKeys.clear();
            if (batch != null) {
                batch.close();
                batch = null;
                if (reservation != null) {
                    reservation.shrink(batchBytes);
                }
            }
            input.close();
        }
    }
}
