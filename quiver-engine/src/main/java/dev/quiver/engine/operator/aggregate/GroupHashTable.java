package dev.quiver.engine.operator.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Maps group keys to dense group ids {@code 0, 1, 2, ...} in order of first appearance.
 *
 * <p>Open addressing with linear probing over a {@code long[]} of slots, at most half full, each
 * holding {@code groupId + 1} (0 = empty) and the high 32 bits of the group's hash as a tag, so a
 * probe touches one array and compares tags before any key; each group's full hash is kept for
 * rehashing without keys. A batch is processed in column-at-a-time passes with no
 * allocation per row: hash every row ({@link KeyColumn#hash}), probe by tag only (inserting new
 * groups), append the new groups' keys, then verify the tag matches against the stored keys.
 * Rows whose tag matched a different key are re-probed one by one with full comparison.
 *
 * <p>The caller sizes the table with {@link #ensureCapacity} before each batch for the worst case
 * (every row a new group), which is what it reserves memory for.
 */
final class GroupHashTable {
    private static final long TAG_MASK = 0xFFFFFFFF00000000L;
    private final KeyColumn[] columns;
    private int groupCount;
    private int capacity;
    private long[] groupHashes = new long[0];
    private long[] slots = new long[0];
    private int mask;

    private long[] hashes = new long[0];
    private int[] newRows = new int[0];
    private int[] verifyRows = new int[0];
    private int[] verifyGroups = new int[0];
    private boolean[] mismatch = new boolean[0];

    GroupHashTable(List<ArrowType> keyTypes) {
        this.columns = keyTypes.stream().map(KeyColumn::create).toArray(KeyColumn[]::new);
    }

    int groupCount() {
        return groupCount;
    }

    /** The full hash of group {@code group}'s key (seeded unlike the partition hash): what a spilling aggregate partitions groups by. */
    long groupHash(int group) {
        return groupHashes[group];
    }

    KeyColumn column(int index) {
        return columns[index];
    }

    /** Bytes the table would hold with room for {@code capacity} groups (plus its current string data). */
    long bytesForCapacity(int capacity) {
        long perGroup = 8 + 2 * 8;
        long variable = 0;
        for (KeyColumn column : columns) {
            perGroup += column.bytesPerGroup();
            variable += column.variableBytes();
        }
        return capacity * perGroup + variable;
    }

    long sizeInBytes() {
        long bytes = (long) groupHashes.length * 8 + (long) slots.length * 8;
        for (KeyColumn column : columns) {
            bytes += column.sizeInBytes();
        }
        return bytes;
    }

    static int capacityFor(int groups) {
        return Math.max(16, Integer.highestOneBit(Math.max(1, groups - 1)) << 1);
    }

    /** The group capacity after {@link #ensureCapacity(int)} of {@code groups}. */
    int capacity() {
        return capacity;
    }

    /** Makes room for {@code groups} groups in total (and a batch of up to that many rows). */
    void ensureCapacity(int groups) {
        if (groups <= capacity) {
            return;
        }
        int newCapacity = capacityFor(groups);
        groupHashes = Arrays.copyOf(groupHashes, newCapacity);
        for (KeyColumn column : columns) {
            column.ensureCapacity(newCapacity);
        }
        slots = new long[newCapacity * 2];
        mask = slots.length - 1;
        for (int g = 0; g < groupCount; g++) {
            long hash = groupHashes[g];
            int pos = slot(hash);
            while (slots[pos] != 0) {
                pos = (pos + 1) & mask;
            }
            slots[pos] = entry(hash, g);
        }
        capacity = newCapacity;
    }

    /**
     * Finds or creates the group of each of the first {@code rows} rows whose key columns were
     * loaded with {@link KeyColumn#load}, writing group ids to {@code groupIds}. The table must have
     * room for {@code groupCount() + rows} groups.
     */
    void findOrInsert(int rows, int[] groupIds) {
        if (groupCount + rows > capacity) {
            throw new IllegalStateException("hash table not sized for the batch: " + groupCount + " + " + rows + " > " + capacity);
        }
        ensureScratch(rows);
        long[] h = hashes;
        Arrays.fill(h, 0, rows, Hashing.SEED);
        for (KeyColumn column : columns) {
            column.hash(rows, h);
        }
        int firstNew = groupCount;
        int newCount = 0;
        int verifyCount = 0;
        for (int i = 0; i < rows; i++) {
            long hash = Hashing.finish(h[i]);
            h[i] = hash;
            int pos = slot(hash);
            while (true) {
                long entry = slots[pos];
                if (entry == 0) {
                    int g = groupCount++;
                    groupHashes[g] = hash;
                    slots[pos] = entry(hash, g);
                    newRows[newCount++] = i;
                    groupIds[i] = g;
                    break;
                }
                if (((entry ^ hash) & TAG_MASK) == 0) {
                    int g = (int) entry - 1;
                    groupIds[i] = g;
                    verifyRows[verifyCount] = i;
                    verifyGroups[verifyCount++] = g;
                    break;
                }
                pos = (pos + 1) & mask;
            }
        }
        for (KeyColumn column : columns) {
            column.append(newRows, newCount, firstNew);
        }
        if (verifyCount > 0) {
            verify(verifyCount, groupIds);
        }
    }

    private void verify(int verifyCount, int[] groupIds) {
        Arrays.fill(mismatch, 0, verifyCount, false);
        for (KeyColumn column : columns) {
            column.verify(verifyRows, verifyGroups, verifyCount, mismatch);
        }
        for (int i = 0; i < verifyCount; i++) {
            if (mismatch[i]) {
                int row = verifyRows[i];
                groupIds[row] = probeExact(row, hashes[row]);
            }
        }
    }

    /** The slow path after a hash collision: probe comparing whole keys, inserting if absent. */
    private int probeExact(int row, long hash) {
        int pos = slot(hash);
        while (true) {
            long entry = slots[pos];
            if (entry == 0) {
                int g = groupCount++;
                groupHashes[g] = hash;
                slots[pos] = entry(hash, g);
                int[] one = {row};
                for (KeyColumn column : columns) {
                    column.append(one, 1, g);
                }
                return g;
            }
            int g = (int) entry - 1;
            if (groupHashes[g] == hash && matchesAll(g, row)) {
                return g;
            }
            pos = (pos + 1) & mask;
        }
    }

    private boolean matchesAll(int group, int row) {
        for (KeyColumn column : columns) {
            if (!column.matches(group, row)) {
                return false;
            }
        }
        return true;
    }

    private int slot(long hash) {
        return (int) hash & mask;
    }

    /** A slot entry: the hash's high 32 bits as a tag beside {@code group + 1} (0 = empty). */
    private static long entry(long hash, int group) {
        return (hash & TAG_MASK) | (group + 1L);
    }

    private void ensureScratch(int rows) {
        if (hashes.length < rows) {
            hashes = new long[rows];
            newRows = new int[rows];
            verifyRows = new int[rows];
            verifyGroups = new int[rows];
            mismatch = new boolean[rows];
        }
    }

    /** The key columns of groups {@code [from, from + count)} as new vectors. */
    void output(List<Field> fields, int from, int count, BufferAllocator allocator, List<FieldVector> out) {
        for (int c = 0; c < columns.length; c++) {
            out.add(columns[c].output(fields.get(c), from, count, allocator));
        }
    }

    /** Drops every group and the memory held for them. */
    void clear() {
        groupCount = 0;
        capacity = 0;
        groupHashes = new long[0];
        slots = new long[0];
        mask = 0;
        for (KeyColumn column : columns) {
            column.clear();
        }
    }
}
