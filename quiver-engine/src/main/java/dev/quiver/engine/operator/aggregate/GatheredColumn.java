package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.Decimal128;
import java.math.BigDecimal;
import java.util.Arrays;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * One column of the rows a holistic aggregate gathers ({@link GatheredRows}): the values of every
 * gathered row, in arrival order, in growable primitive arrays (strings in one byte arena), with
 * their NULL flags. Rows are compared in place, so sorting a group's rows moves only row numbers.
 */
abstract sealed class GatheredColumn {
    protected boolean[] nulls = new boolean[0];
    protected int size;
    private boolean[] batchNulls = new boolean[0];
    private boolean batchHasNulls;

    static GatheredColumn create(ArrowType type) {
        ColumnKind kind = ColumnKind.of(type);
        return switch (kind) {
            case DOUBLE -> new DoubleColumn();
            case DECIMAL -> new DecimalColumn(((ArrowType.Decimal) type).getScale());
            case STRING -> new StringColumn();
            default -> new LongColumn(kind);
        };
    }

    int size() {
        return size;
    }

    /** Appends rows {@code rows[0, count)} of {@code vector} (of a batch of {@code batchRows} rows). */
    final void append(FieldVector vector, int batchRows, int[] rows, int count) {
        if (batchNulls.length < batchRows) {
            batchNulls = new boolean[batchRows];
        }
        batchHasNulls = Columns.loadNulls(vector, batchRows, batchNulls);
        load(vector, batchRows);
        int capacity = nulls.length;
        if (size + count > capacity) {
            int grown = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(size + (long) count, 2L * capacity + 16));
            nulls = Arrays.copyOf(nulls, grown);
            grow(grown);
        }
        for (int i = 0; i < count; i++) {
            nulls[size + i] = batchHasNulls && batchNulls[rows[i]];
        }
        appendLoaded(rows, count, size);
        size += count;
    }

    boolean isNull(int row) {
        return nulls[row];
    }

    /** Loads the batch's values into scratch arrays. */
    protected abstract void load(FieldVector vector, int rows);

    /** Appends loaded batch rows {@code rows[0, count)} at positions {@code at, at + 1, ...}. */
    protected abstract void appendLoaded(int[] rows, int count, int at);

    protected abstract void grow(int capacity);

    /** Orders two non-NULL gathered values. */
    abstract int compareValues(int a, int b);

    /** Orders two gathered values, NULLs first or last. */
    final int compare(int a, int b, boolean nullsFirst) {
        boolean nullA = nulls[a];
        boolean nullB = nulls[b];
        if (nullA || nullB) {
            return nullA == nullB ? 0 : (nullA == nullsFirst ? -1 : 1);
        }
        return compareValues(a, b);
    }

    /** Writes gathered value {@code row} (not NULL) to position {@code index} of {@code out}, a vector of the column's type. */
    abstract void write(FieldVector out, int index, int row);

    /** Bytes held, counting the arrays' capacity. */
    long bytes() {
        return nulls.length;
    }

    void clear() {
        nulls = new boolean[0];
        size = 0;
        grow(0);
    }

    /** BOOLEAN, INTEGER, BIGINT, DATE and TIMESTAMP values as {@code long}s. */
    static final class LongColumn extends GatheredColumn {
        private final ColumnKind kind;
        private long[] values = new long[0];
        private long[] batch = new long[0];

        LongColumn(ColumnKind kind) {
            this.kind = kind;
        }

        long value(int row) {
            return values[row];
        }

        ColumnKind kind() {
            return kind;
        }

        @Override
        protected void load(FieldVector vector, int rows) {
            if (batch.length < rows) {
                batch = new long[rows];
            }
            Columns.loadLongs(kind, vector, rows, batch);
        }

        @Override
        protected void appendLoaded(int[] rows, int count, int at) {
            for (int i = 0; i < count; i++) {
                values[at + i] = batch[rows[i]];
            }
        }

        @Override
        protected void grow(int capacity) {
            values = Arrays.copyOf(values, capacity);
        }

        @Override
        int compareValues(int a, int b) {
            return Long.compare(values[a], values[b]);
        }

        @Override
        void write(FieldVector out, int index, int row) {
            long value = values[row];
            switch (kind) {
                case BOOLEAN -> ((BitVector) out).set(index, (int) value);
                case INT32 -> ((IntVector) out).set(index, (int) value);
                case DATE -> ((DateDayVector) out).set(index, (int) value);
                case INT64 -> ((BigIntVector) out).set(index, value);
                case TIMESTAMP -> ((TimeStampVector) out).set(index, value);
                default -> throw new IllegalStateException("not a long kind: " + kind);
            }
        }

        @Override
        long bytes() {
            return super.bytes() + 8L * values.length;
        }
    }

    /** DOUBLE values, ordered as {@link Double#compare} orders them (NaN last). */
    static final class DoubleColumn extends GatheredColumn {
        private double[] values = new double[0];
        private double[] batch = new double[0];

        double value(int row) {
            return values[row];
        }

        @Override
        protected void load(FieldVector vector, int rows) {
            if (batch.length < rows) {
                batch = new double[rows];
            }
            Columns.loadDoubles(vector, rows, batch);
        }

        @Override
        protected void appendLoaded(int[] rows, int count, int at) {
            for (int i = 0; i < count; i++) {
                values[at + i] = batch[rows[i]];
            }
        }

        @Override
        protected void grow(int capacity) {
            values = Arrays.copyOf(values, capacity);
        }

        @Override
        int compareValues(int a, int b) {
            return Double.compare(values[a], values[b]);
        }

        @Override
        void write(FieldVector out, int index, int row) {
            ((Float8Vector) out).set(index, values[row]);
        }

        @Override
        long bytes() {
            return super.bytes() + 8L * values.length;
        }
    }

    /** 128-bit DECIMAL values of one scale, as low and high words. */
    static final class DecimalColumn extends GatheredColumn {
        private final int scale;
        private long[] lows = new long[0];
        private long[] highs = new long[0];
        private long[] batchLows = new long[0];
        private long[] batchHighs = new long[0];

        DecimalColumn(int scale) {
            this.scale = scale;
        }

        int scale() {
            return scale;
        }

        long low(int row) {
            return lows[row];
        }

        long high(int row) {
            return highs[row];
        }

        @Override
        protected void load(FieldVector vector, int rows) {
            if (batchLows.length < rows) {
                batchLows = new long[rows];
                batchHighs = new long[rows];
            }
            Columns.loadDecimals(vector, rows, batchLows, batchHighs);
        }

        @Override
        protected void appendLoaded(int[] rows, int count, int at) {
            for (int i = 0; i < count; i++) {
                lows[at + i] = batchLows[rows[i]];
                highs[at + i] = batchHighs[rows[i]];
            }
        }

        @Override
        protected void grow(int capacity) {
            lows = Arrays.copyOf(lows, capacity);
            highs = Arrays.copyOf(highs, capacity);
        }

        @Override
        int compareValues(int a, int b) {
            int high = Long.compare(highs[a], highs[b]);
            return high != 0 ? high : Long.compareUnsigned(lows[a], lows[b]);
        }

        @Override
        void write(FieldVector out, int index, int row) {
            Columns.setDecimal(out, index, lows[row], highs[row]);
        }

        /** The value as a BigDecimal (for the rare arithmetic beyond 18 digits). */
        BigDecimal toBigDecimal(int row) {
            return new Decimal128().set(highs[row], lows[row]).toBigDecimal(scale);
        }

        @Override
        long bytes() {
            return super.bytes() + 16L * lows.length;
        }
    }

    /** VARCHAR values in one arena, ordered by their UTF-8 bytes (code point order). */
    static final class StringColumn extends GatheredColumn {
        private byte[] arena = new byte[0];
        private int[] offsets = new int[1];
        private final StringKeyColumn.StringBatch batch = new StringKeyColumn.StringBatch();

        int start(int row) {
            return offsets[row];
        }

        int length(int row) {
            return offsets[row + 1] - offsets[row];
        }

        byte[] arena() {
            return arena;
        }

        @Override
        protected void load(FieldVector vector, int rows) {
            batch.load(vector, rows);
        }

        @Override
        protected void appendLoaded(int[] rows, int count, int at) {
            long needed = offsets[at];
            for (int i = 0; i < count; i++) {
                needed += batch.length(rows[i]);
            }
            if (needed > Integer.MAX_VALUE - 16) {
                throw new QuiverException(ErrorCode.NOT_SUPPORTED,
                        "the strings one aggregation partition gathers exceed 2 GiB");
            }
            if (needed > arena.length) {
                arena = Arrays.copyOf(arena, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(needed, 2L * arena.length)));
            }
            int end = offsets[at];
            for (int i = 0; i < count; i++) {
                int row = rows[i];
                int length = nulls[at + i] ? 0 : batch.length(row);
                System.arraycopy(batch.data, batch.offsets[row], arena, end, length);
                end += length;
                offsets[at + i + 1] = end;
            }
        }

        @Override
        protected void grow(int capacity) {
            if (capacity == 0) {
                arena = new byte[0];
                offsets = new int[1];
                return;
            }
            offsets = Arrays.copyOf(offsets, capacity + 1);
        }

        @Override
        int compareValues(int a, int b) {
            return Arrays.compareUnsigned(arena, offsets[a], offsets[a + 1], arena, offsets[b], offsets[b + 1]);
        }

        @Override
        void write(FieldVector out, int index, int row) {
            Columns.setString(out, index, arena, offsets[row], length(row));
        }

        @Override
        long bytes() {
            return super.bytes() + 4L * offsets.length + arena.length;
        }
    }
}
