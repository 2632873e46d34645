package dev.quiver.engine.operator.aggregate;

import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * One group-key column of a {@link GroupHashTable}: the key values of every group, in group-id
 * order, in growable primitive arrays, plus the current input batch's values of that column.
 *
 * <p>Per batch: {@link #load} copies the batch column into scratch arrays, then the table calls
 * {@link #hash}, {@link #append} and {@link #verify}, each one loop over many rows. A NULL key is a
 * value of its own (equal to other NULLs).
 */
abstract class KeyColumn {
    protected boolean[] groupNulls = new boolean[0];
    protected boolean[] batchNulls = new boolean[0];
    protected boolean batchHasNulls;

    static KeyColumn create(ArrowType type) {
        ColumnKind kind = ColumnKind.of(type);
        return switch (kind) {
            case DOUBLE -> new DoubleKeyColumn();
            case DECIMAL -> new DecimalKeyColumn();
            case STRING -> new StringKeyColumn();
            default -> new LongKeyColumn(kind);
        };
    }

    /** Reads rows {@code [0, rows)} of this column of the current batch. */
    final void load(FieldVector vector, int rows) {
        if (batchNulls.length < rows) {
            batchNulls = new boolean[rows];
        }
        batchHasNulls = Columns.loadNulls(vector, rows, batchNulls);
        loadValues(vector, rows);
    }

    protected abstract void loadValues(FieldVector vector, int rows);

    /** Folds the batch rows' values into their running hashes. */
    abstract void hash(int rows, long[] hashes);

    /** Appends batch rows {@code rows[0, count)} as the keys of groups {@code firstGroup, firstGroup + 1, ...}. */
    final void append(int[] rows, int count, int firstGroup) {
        for (int i = 0; i < count; i++) {
            groupNulls[firstGroup + i] = batchHasNulls && batchNulls[rows[i]];
        }
        appendValues(rows, count, firstGroup);
    }

    protected abstract void appendValues(int[] rows, int count, int firstGroup);

    /** Sets {@code mismatch[i]} for each {@code i < count} whose batch row {@code rows[i]} differs from group {@code groups[i]}. */
    abstract void verify(int[] rows, int[] groups, int count, boolean[] mismatch);

    /** Whether batch row {@code row} equals the key of {@code group}. */
    abstract boolean matches(int group, int row);

    /** Makes room for {@code capacity} groups. */
    void ensureCapacity(int capacity) {
        if (groupNulls.length < capacity) {
            groupNulls = Arrays.copyOf(groupNulls, capacity);
            growValues(capacity);
        }
    }

    protected abstract void growValues(int capacity);

    /** Bytes per group of the fixed-width arrays. */
    abstract int bytesPerGroup();

    /** Bytes held beyond the fixed-width arrays (string data). */
    long variableBytes() {
        return 0;
    }

    long sizeInBytes() {
        return (long) groupNulls.length * bytesPerGroup() + variableBytes();
    }

    /** The keys of groups {@code [from, from + count)} as a new vector. */
    abstract FieldVector output(Field field, int from, int count, BufferAllocator allocator);

    /** Drops every group (and the memory held for them). */
    void clear() {
        groupNulls = new boolean[0];
        growValues(0);
    }

    protected final boolean batchNull(int row) {
        return batchHasNulls && batchNulls[row];
    }
}
