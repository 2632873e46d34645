package dev.quiver.engine.operator.join;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * A chained hash table over the rows of the (single, concatenated) build batch, held in three
 * primitive arrays and no per-row objects: {@code heads[bucket]} is the first row of a bucket,
 * {@code next[row]} the following row of the same bucket, and {@code tags[row]} the upper 32 bits
 * of the row's hash, compared before any key column is read. Rows whose key has a NULL are not
 * inserted: they never match.
 *
 * <p>Chains list rows in ascending order, so equal keys come out in build order. Immutable once
 * built, so the partitions of a collect-left join probe it concurrently.
 */
final class JoinHashTable {
    /** Marks the end of a chain. */
    static final int END = -1;
    private static final int CHUNK = 4096;

    private final int[] heads;
    private final int[] next;
    private final int[] tags;
    private final int mask;

    private JoinHashTable(int capacity, int rows) {
        this.heads = new int[capacity];
        this.next = new int[rows];
        this.tags = new int[rows];
        this.mask = capacity - 1;
        Arrays.fill(heads, END);
    }

    /** Buckets for {@code rows} rows: a power of two keeping the load factor at most 0.75. */
    static int capacity(int rows) {
        long wanted = Math.max(16, (long) rows * 4 / 3 + 1);
        long capacity = Long.highestOneBit(wanted - 1) << 1;
        if (capacity > 1 << 30) {
            throw new IllegalArgumentException("join build side too large for one hash table: " + rows + " rows");
        }
        return (int) capacity;
    }

    /** Heap bytes of a table over {@code rows} rows, to reserve before building it. */
    static long estimatedBytes(int rows) {
        return 4L * capacity(rows) + 8L * rows + 8L * CHUNK + CHUNK;
    }

    /** Hashes the key columns of rows {@code [0, rows)} and links every row without a NULL key. */
    static JoinHashTable build(List<FieldVector> keys, List<KeyKernel> kernels, int rows) {
        JoinHashTable table = new JoinHashTable(capacity(rows), rows);
        long[] hashes = new long[Math.min(CHUNK, Math.max(rows, 1))];
        boolean[] nulls = new boolean[hashes.length];
        // Walk the rows backwards and push each on its chain's head: chains end up ascending.
        int lastChunkStart = rows == 0 ? 0 : ((rows - 1) / CHUNK) * CHUNK;
        for (int start = lastChunkStart; start >= 0 && rows > 0; start -= CHUNK) {
            int count = Math.min(CHUNK, rows - start);
            KeyKernel.hashRows(keys, kernels, start, count, hashes, nulls);
            for (int i = count - 1; i >= 0; i--) {
                if (nulls[i]) {
                    continue;
                }
                int row = start + i;
                long hash = hashes[i];
                int bucket = (int) hash & table.mask;
                table.tags[row] = (int) (hash >>> 32);
                table.next[row] = table.heads[bucket];
                table.heads[bucket] = row;
            }
        }
        return table;
    }

    /** The first row of the chain {@code hash} falls in, or {@link #END}. */
    int head(long hash) {
        return heads[(int) hash & mask];
    }

    /** The row after {@code row} in its chain, or {@link #END}. */
    int next(int row) {
        return next[row];
    }

    /** Whether {@code row}'s hash could equal {@code hash} (same upper 32 bits). */
    boolean tagMatches(int row, long hash) {
        return tags[row] == (int) (hash >>> 32);
    }
}
