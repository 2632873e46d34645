package dev.quiver.engine.operator.exchange;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Filter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;

/**
 * The rows of one batch grouped by the partition each goes to: a counting sort of the row
 * indices by partition number, from which each partition's rows are gathered buffer to buffer.
 * Shared by the hash repartition and the operators that hash-split what they spill.
 */
public final class PartitionSplit {
    private final int rows;
    private final int[] counts;
    private final int[] starts;
    private final int[] indices;

    private PartitionSplit(int rows, int[] counts, int[] starts, int[] indices) {
        this.rows = rows;
        this.counts = counts;
        this.starts = starts;
        this.indices = indices;
    }

    /** Groups rows {@code [0, partitions.length)} by {@code partitions[row]}, each in {@code [0, partitionCount)}. */
    public static PartitionSplit of(int[] partitions, int partitionCount) {
        requireNonNull(partitions, "partitions is null");
        int rows = partitions.length;
        int[] counts = new int[partitionCount];
        for (int partition : partitions) {
            counts[partition]++;
        }
        int[] starts = new int[partitionCount];
        int offset = 0;
        for (int p = 0; p < partitionCount; p++) {
            starts[p] = offset;
            offset += counts[p];
        }
        // ascending within each partition, so each piece keeps the input's row order
        int[] indices = new int[rows];
        int[] fill = starts.clone();
        for (int r = 0; r < rows; r++) {
            indices[fill[partitions[r]]++] = r;
        }
        return new PartitionSplit(rows, counts, starts, indices);
    }

    public int partitionCount() {
        return counts.length;
    }

    /** Rows going to {@code partition}. */
    public int count(int partition) {
        return counts[partition];
    }

    /**
     * The rows of {@code batch} going to {@code partition} as a new batch owned by the caller (the
     * caller still closes {@code batch}); when they are all its rows, its buffers are shared instead of copied.
     */
    public VectorSchemaRoot take(VectorSchemaRoot batch, int partition, BufferAllocator allocator) {
        int count = counts[partition];
        return count == rows ? takeAll(batch, allocator) : gather(batch, Arrays.copyOfRange(indices, starts[partition], starts[partition] + count), allocator);
    }

    private static VectorSchemaRoot gather(VectorSchemaRoot batch, int[] slice, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(batch.getFieldVectors().size());
        try {
            for (FieldVector vector : batch.getFieldVectors()) {
                vectors.add(Filter.gather(vector, slice, slice.length, allocator));
            }
        } catch (RuntimeException | Error e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new VectorSchemaRoot(batch.getSchema().getFields(), vectors, slice.length);
    }

    private static VectorSchemaRoot takeAll(VectorSchemaRoot batch, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(batch.getFieldVectors().size());
        for (FieldVector vector : batch.getFieldVectors()) {
            TransferPair pair = vector.getTransferPair(allocator);
            pair.splitAndTransfer(0, batch.getRowCount());
            vectors.add((FieldVector) pair.getTo());
        }
        return new VectorSchemaRoot(batch.getSchema().getFields(), vectors, batch.getRowCount());
    }
}
