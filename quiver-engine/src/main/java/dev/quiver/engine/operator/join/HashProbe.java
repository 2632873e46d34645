package dev.quiver.engine.operator.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.PhysicalExpr;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Looks up a probe batch in the build side's hash table: hashes the probe keys column by column,
 * collects the rows of each probe row's group (same hash tag), then keeps the pairs whose keys
 * are equal, comparing column by column over the whole chunk. A group is resumed where the last
 * chunk stopped. Arrays are reused across batches: nothing is allocated per row.
 */
final class HashProbe implements PairSource {
    private static final int NEW_ROW = -2;

    private final BuildSide build;
    private final JoinHashTable table;
    private final List<PhysicalExpr> probeKeys;
    private final List<KeyKernel> kernels;
    private final BufferAllocator allocator;
    private final List<FieldVector> keyVectors = new ArrayList<>();
    private final List<FieldVector> ownedKeyVectors = new ArrayList<>();
    private long[] hashes = new long[0];
    private boolean[] nulls = new boolean[0];
    private long[] entries = new long[0];
    private int rows;
    private int probeRow;
    private int chain = NEW_ROW;

    HashProbe(BuildSide build, List<PhysicalExpr> probeKeys, List<KeyKernel> kernels, BufferAllocator allocator) {
        this.build = requireNonNull(build, "build is null");
        this.table = requireNonNull(build.table(), "build side has no hash table");
        this.probeKeys = requireNonNull(probeKeys, "probeKeys is null");
        this.kernels = requireNonNull(kernels, "kernels is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    @Override
    public void start(VectorSchemaRoot probe) {
        finishBatch();
        rows = probe.getRowCount();
        probeRow = 0;
        chain = NEW_ROW;
        if (rows == 0 || build.rowCount() == 0) {
            rows = 0;
            return;
        }
        keyVectors.addAll(KeyKernel.keyVectors(probeKeys, probe, allocator, ownedKeyVectors));
        if (hashes.length < rows) {
            hashes = new long[rows];
            nulls = new boolean[rows];
            entries = new long[rows];
        }
        KeyKernel.hashRows(keyVectors, kernels, 0, rows, hashes, nulls);
        // One tight loop of independent table lookups lets the CPU overlap their cache misses.
        for (int row = 0; row < rows; row++) {
            entries[row] = nulls[row] ? 0 : table.find(hashes[row]);
        }
    }

    @Override
    public boolean hasMore() {
        return probeRow < rows;
    }

    @Override
    public int fill(int[] buildRows, int[] probeRows, int max) {
        int count = 0;
        int row = probeRow;
        int candidate = chain;
        while (row < rows && count < max) {
            if (candidate == NEW_ROW) {
                long entry = entries[row];
                if (entry == 0) {
                    row++;
                    continue;
                }
                buildRows[count] = JoinHashTable.firstRow(entry);
                probeRows[count] = row;
                count++;
                candidate = JoinHashTable.hasMore(entry) ? table.next(JoinHashTable.firstRow(entry)) : JoinHashTable.END;
            }
            while (candidate != JoinHashTable.END && count < max) {
                buildRows[count] = candidate;
                probeRows[count] = row;
                count++;
                candidate = table.next(candidate);
            }
            if (candidate == JoinHashTable.END) {
                row++;
                candidate = NEW_ROW;
            }
        }
        probeRow = row;
        chain = candidate;
        List<FieldVector> buildKeys = build.keys();
        for (int k = 0; k < kernels.size() && count > 0; k++) {
            count = kernels.get(k).retainEqual(buildKeys.get(k), keyVectors.get(k), buildRows, probeRows, count);
        }
        return count;
    }

    @Override
    public void finishBatch() {
        keyVectors.clear();
        ownedKeyVectors.forEach(FieldVector::close);
        ownedKeyVectors.clear();
        rows = 0;
    }

    @Override
    public void close() {
        finishBatch();
    }
}
