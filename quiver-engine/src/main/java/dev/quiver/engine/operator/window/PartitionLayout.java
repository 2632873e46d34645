package dev.quiver.engine.operator.window;

import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.sort.RowComparator;
import dev.quiver.engine.operator.sort.SortKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Where the window partitions and peer groups of a run of sorted rows begin and end. Rows are
 * numbered across the batches in order. A peer group (rows of one partition with equal ORDER BY
 * keys) never spans two partitions; without ORDER BY a partition is one peer group.
 */
final class PartitionLayout {
    private final int rows;
    /** Start row of each partition, then {@code rows}. */
    private final int[] partitionStarts;
    /** Start row of each peer group, then {@code rows}. */
    private final int[] peerStarts;
    private final int[] partitionOf;
    private final int[] peerOf;

    private PartitionLayout(int rows, int[] partitionStarts, int[] peerStarts, int[] partitionOf, int[] peerOf) {
        this.rows = rows;
        this.partitionStarts = partitionStarts;
        this.peerStarts = peerStarts;
        this.partitionOf = partitionOf;
        this.peerOf = peerOf;
    }

    /** Bytes a layout of {@code rows} rows holds, with the key copies it makes while it is computed. */
    static long estimateBytes(int rows, int keyCount) {
        return 16L * rows + 24L * rows * keyCount;
    }

    /** The layout of the rows of {@code batches}, sorted on the partition keys and then the order keys. */
    static PartitionLayout compute(List<VectorSchemaRoot> batches, List<PhysicalExpr> partitionKeys, List<SortKey> orderKeys,
            BufferAllocator allocator) {
        int rows = 0;
        for (VectorSchemaRoot batch : batches) {
            rows += batch.getRowCount();
        }
        List<SortKey> partitionSortKeys = partitionKeys.stream().map(key -> new SortKey(key, true, true)).toList();
        RowComparator partitions = comparator(batches, partitionSortKeys, allocator);
        RowComparator peers = comparator(batches, orderKeys, allocator);
        int[] partitionOf = new int[rows];
        int[] peerOf = new int[rows];
        int[] partitionStarts = new int[16];
        int[] peerStarts = new int[16];
        int partitionCount = 0;
        int peerCount = 0;
        for (int row = 0; row < rows; row++) {
            boolean newPartition = row == 0 || (partitions != null && partitions.compare(row - 1, row) != 0);
            boolean newPeer = newPartition || (peers != null && peers.compare(row - 1, row) != 0);
            if (newPartition) {
                partitionStarts = ensure(partitionStarts, partitionCount + 2);
                partitionStarts[partitionCount++] = row;
            }
            if (newPeer) {
                peerStarts = ensure(peerStarts, peerCount + 2);
                peerStarts[peerCount++] = row;
            }
            partitionOf[row] = partitionCount - 1;
            peerOf[row] = peerCount - 1;
        }
        partitionStarts = ensure(partitionStarts, partitionCount + 1);
        peerStarts = ensure(peerStarts, peerCount + 1);
        partitionStarts[partitionCount] = rows;
        peerStarts[peerCount] = rows;
        return new PartitionLayout(rows, Arrays.copyOf(partitionStarts, partitionCount + 1), Arrays.copyOf(peerStarts, peerCount + 1),
                partitionOf, peerOf);
    }

    private static RowComparator comparator(List<VectorSchemaRoot> batches, List<SortKey> keys, BufferAllocator allocator) {
        if (keys.isEmpty()) {
            return null;
        }
        List<FieldVector> owned = new ArrayList<>();
        try {
            List<List<FieldVector>> keyVectors = new ArrayList<>(batches.size());
            for (VectorSchemaRoot batch : batches) {
                keyVectors.add(RowComparator.keyVectors(keys, batch, allocator, owned));
            }
            // the comparator copies the key values; the evaluated key vectors can go
            return RowComparator.build(keys, keyVectors);
        } finally {
            owned.forEach(FieldVector::close);
        }
    }

    private static int[] ensure(int[] array, int size) {
        return array.length >= size ? array : Arrays.copyOf(array, Math.max(size, array.length * 2));
    }

    /** The layout of the first {@code prefixRows} rows, which must end where a partition ends. */
    PartitionLayout prefix(int prefixRows) {
        if (prefixRows == rows) {
            return this;
        }
        int partitions = Arrays.binarySearch(partitionStarts, prefixRows);
        int peers = Arrays.binarySearch(peerStarts, prefixRows);
        if (partitions < 0 || peers < 0) {
            throw new IllegalArgumentException("row " + prefixRows + " does not start a partition");
        }
        return new PartitionLayout(prefixRows, Arrays.copyOf(partitionStarts, partitions + 1), Arrays.copyOf(peerStarts, peers + 1),
                partitionOf, peerOf);
    }

    int rows() {
        return rows;
    }

    int partitionCount() {
        return partitionStarts.length - 1;
    }

    /** The first row of partition {@code p} ({@code rows} for {@code p == partitionCount()}). */
    int partitionStartOf(int p) {
        return partitionStarts[p];
    }

    int partitionOf(int row) {
        return partitionOf[row];
    }

    int partitionStart(int row) {
        return partitionStarts[partitionOf[row]];
    }

    int partitionEnd(int row) {
        return partitionStarts[partitionOf[row] + 1];
    }

    /** The global index of the peer group of {@code row}. */
    int peerOf(int row) {
        return peerOf[row];
    }

    int peerStart(int row) {
        return peerStarts[peerOf[row]];
    }

    int peerEnd(int row) {
        return peerStarts[peerOf[row] + 1];
    }

    /** The first row of peer group {@code g} ({@code rows} for {@code g} = the number of peer groups). */
    int peerStartOf(int g) {
        return peerStarts[g];
    }

    /** Per row, the index of its partition (shared, do not modify). */
    int[] partitionIds() {
        return partitionOf;
    }
}
