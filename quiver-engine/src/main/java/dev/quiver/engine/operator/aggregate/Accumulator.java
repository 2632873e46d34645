package dev.quiver.engine.operator.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The per-group state of one aggregate, in primitive arrays indexed by group id. Updates are one
 * type-specialised loop over a batch's rows and their group ids, with no boxing or allocation per
 * row. A group that has never been updated has the function's empty state (count 0, no value).
 *
 * <p>{@link #update} folds raw input values in (PARTIAL, SINGLE); {@link #merge} folds partial
 * states in (FINAL); {@link #state} writes partial states (the columns of
 * {@link AggregateExpr#stateFields()}); {@link #evaluate} writes final values.
 *
 * <p>Operators outside this package that aggregate over groups of their own (window frames) use
 * accumulators through a public facade over {@link Accumulators#create}. Not thread-safe: one
 * accumulator belongs to one partition.
 */
abstract class Accumulator {
    private int capacity;
    private final Scratch scratch = new Scratch();

    /** Makes room for groups {@code [0, capacity)}; new groups start empty. */
    public final void ensureCapacity(int newCapacity) {
        if (newCapacity > capacity) {
            grow(newCapacity);
            capacity = newCapacity;
        }
    }

    /** Resizes every per-group array to {@code newCapacity} (0 drops them all). */
    protected abstract void grow(int newCapacity);

    /** Bytes per group of the per-group arrays. */
    public abstract int bytesPerGroup();

    /** Bytes held beyond the per-group arrays (string values, distinct sets, gathered values). */
    public long variableBytes() {
        return 0;
    }

    /** Every byte this accumulator holds on the heap: the per-group arrays and {@link #variableBytes()}. */
    public final long sizeInBytes() {
        return (long) capacity * bytesPerGroup() + variableBytes();
    }

    /**
     * Folds rows {@code [0, rows)} of the evaluated inputs ({@link AggregateExpr#inputs()}: the
     * arguments, then the ORDER BY keys; empty for {@code COUNT(*)}) into groups
     * {@code groupIds[0, rows)}.
     */
    public abstract void update(int[] groupIds, int rows, List<FieldVector> inputs);

    /** {@link #update(int[], int, List)} of a one-input aggregate ({@code arg} null: {@code COUNT(*)}). */
    public final void update(int[] groupIds, int rows, FieldVector arg) {
        update(groupIds, rows, arg == null ? List.of() : List.of(arg));
    }

    /**
     * Folds rows {@code [0, rows)} into group 0, for an aggregate without GROUP BY; {@code zeros}
     * holds {@code rows} zero group ids. The same as {@link #update}, which it calls; MIN and MAX
     * override it with loops that read the Arrow buffers in place and keep the running value in a
     * local.
     */
    public void updateSingleGroup(int[] zeros, int rows, List<FieldVector> inputs) {
        update(zeros, rows, inputs);
    }

    /** Folds partial states (the state columns, in order) into groups {@code groupIds[0, rows)}. */
    public abstract void merge(int[] groupIds, int rows, List<FieldVector> states);

    /** The state columns of groups {@code [from, from + count)}, appended to {@code out}. */
    public abstract void state(List<Field> fields, int from, int count, BufferAllocator allocator, List<FieldVector> out);

    /** The final values of groups {@code [from, from + count)}, as a new vector the caller owns. */
    public abstract FieldVector evaluate(Field field, int from, int count, BufferAllocator allocator);

    /** Drops every group. */
    public void clear() {
        capacity = 0;
        grow(0);
    }

    final Scratch scratch() {
        return scratch;
    }

    /** Reusable per-batch arrays an accumulator loads argument values into. */
    static final class Scratch {
        long[] longs = new long[0];
        long[] highs = new long[0];
        double[] doubles = new double[0];
        boolean[] nulls = new boolean[0];
        final StringKeyColumn.StringBatch strings = new StringKeyColumn.StringBatch();

        long[] longs(int rows) {
            if (longs.length < rows) {
                longs = new long[rows];
            }
            return longs;
        }

        long[] highs(int rows) {
            if (highs.length < rows) {
                highs = new long[rows];
            }
            return highs;
        }

        double[] doubles(int rows) {
            if (doubles.length < rows) {
                doubles = new double[rows];
            }
            return doubles;
        }

        /** The rows where any of {@code vectors} is NULL; null when none of them has a NULL. */
        boolean[] nulls(List<FieldVector> vectors, int rows) {
            if (vectors.size() == 1) {
                return nulls(vectors.get(0), rows);
            }
            boolean any = false;
            for (FieldVector vector : vectors) {
                any |= vector.getNullCount() != 0;
            }
            if (!any) {
                return null;
            }
            if (nulls.length < rows) {
                nulls = new boolean[rows];
            }
            Arrays.fill(nulls, 0, rows, false);
            for (FieldVector vector : vectors) {
                if (vector.getNullCount() != 0) {
                    ArrowBuf validity = vector.getValidityBuffer();
                    for (int i = 0; i < rows; i++) {
                        nulls[i] |= BitVectorHelper.get(validity, i) == 0;
                    }
                }
            }
            return nulls;
        }

        /** Loads the vector's null flags; null when it has none. */
        boolean[] nulls(FieldVector vector, int rows) {
            if (nulls.length < rows) {
                nulls = new boolean[rows];
            }
            return Columns.loadNulls(vector, rows, nulls) ? nulls : null;
        }

        /** The vector's values as doubles (DOUBLE, integer kinds or DECIMAL of the given scale). */
        double[] loadDoubles(FieldVector vector, int rows) {
            return loadDoubles(vector, rows, doubles(rows));
        }

        /** {@link #loadDoubles(FieldVector, int)} into {@code out}, which holds at least {@code rows} values. */
        double[] loadDoubles(FieldVector vector, int rows, double[] out) {
            ColumnKind kind = ColumnKind.of(vector.getField().getType());
            if (kind == ColumnKind.DOUBLE) {
                Columns.loadDoubles(vector, rows, out);
            } else if (kind.isLong()) {
                long[] values = longs(rows);
                Columns.loadLongs(kind, vector, rows, values);
                for (int i = 0; i < rows; i++) {
                    out[i] = values[i];
                }
            } else if (kind == ColumnKind.DECIMAL) {
                int scale = ((org.apache.arrow.vector.types.pojo.ArrowType.Decimal) vector.getField().getType()).getScale();
                long[] lows = longs(rows);
                long[] his = highs(rows);
                Columns.loadDecimals(vector, rows, lows, his);
                for (int i = 0; i < rows; i++) {
                    out[i] = DecimalResults.toDouble(lows[i], his[i], scale);
                }
            } else {
                throw new IllegalArgumentException("not numeric: " + vector.getField());
            }
            return out;
        }
    }
}
