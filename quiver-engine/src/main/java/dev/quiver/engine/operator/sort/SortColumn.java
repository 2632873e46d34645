package dev.quiver.engine.operator.sort;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.PlanChecks;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.TimeStampVector;

/**
 * The values of one sort key over a set of rows, copied out of their Arrow vectors into a flat
 * on-heap array of the key's type so that the comparisons of a sort are array reads: integers,
 * dates, timestamps, booleans and decimals of precision up to 18 as {@code long}, doubles as
 * {@code double}, wider decimals as two {@code long}s, strings as bytes compared unsigned
 * (code point order).
 *
 * <p>Rows are numbered across the vectors in order. Two columns built for the same key (from
 * different batches, as a merge needs) compare with each other.
 */
abstract sealed class SortColumn {
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private final boolean ascending;
    private final boolean nullsFirst;
    private final boolean[] nulls;

    SortColumn(SortKey key, boolean[] nulls) {
        this.ascending = key.ascending();
        this.nullsFirst = key.nullsFirst();
        this.nulls = nulls;
    }

    /** Builds the column of {@code key} over the rows of {@code vectors}, one vector per batch. */
    static SortColumn build(SortKey key, List<? extends FieldVector> vectors) {
        int rows = 0;
        boolean anyNull = false;
        for (FieldVector vector : vectors) {
            rows += vector.getValueCount();
            anyNull |= vector.getNullCount() > 0;
        }
        boolean[] nulls = anyNull ? new boolean[rows] : null;
        if (anyNull) {
            int row = 0;
            for (FieldVector vector : vectors) {
                for (int i = 0; i < vector.getValueCount(); i++) {
                    nulls[row++] = vector.isNull(i);
                }
            }
        }
        FieldVector first = vectors.isEmpty() ? null : vectors.get(0);
        if (first instanceof Float8Vector || first instanceof Float4Vector) {
            return new DoubleColumn(key, nulls, vectors, rows);
        }
        if (first instanceof DecimalVector decimal && decimal.getPrecision() > 18) {
            return new WideDecimalColumn(key, nulls, vectors, rows);
        }
        if (first instanceof BaseVariableWidthVector) {
            return new BytesColumn(key, nulls, vectors, rows);
        }
        return new LongColumn(key, nulls, vectors, rows);
    }

    /** Estimated heap bytes of a column over {@code rows} rows with {@code dataBytes} of variable-width data. */
    static long estimateBytes(int rows, long dataBytes) {
        return 16L * rows + dataBytes;
    }

    /** Compares row {@code row} of this column with row {@code otherRow} of {@code other} (same key). */
    final int compare(int row, SortColumn other, int otherRow) {
        boolean thisNull = nulls != null && nulls[row];
        boolean otherNull = other.nulls != null && other.nulls[otherRow];
        if (thisNull || otherNull) {
            if (thisNull && otherNull) {
                return 0;
            }
            return thisNull == nullsFirst ? -1 : 1;
        }
        int result = compareValues(row, other, otherRow);
        return ascending ? result : -result;
    }

    abstract int compareValues(int row, SortColumn other, int otherRow);

    static final class LongColumn extends SortColumn {
        private final long[] values;

        LongColumn(SortKey key, boolean[] nulls, List<? extends FieldVector> vectors, int rows) {
            super(key, nulls);
            values = new long[rows];
            int row = 0;
            for (FieldVector vector : vectors) {
                fill(vector, values, row);
                row += vector.getValueCount();
            }
        }

        /** Copies the vector's values (nulls as 0; the null flags decide) to {@code values[offset..]}, one type test per vector. */
        private static void fill(FieldVector vector, long[] values, int offset) {
            int count = vector.getValueCount();
            if (vector instanceof IntVector v) {
                ArrowBuf data = v.getDataBuffer();
                for (int i = 0; i < count; i++) {
                    values[offset + i] = data.getInt((long) i * IntVector.TYPE_WIDTH);
                }
            } else if (vector instanceof BigIntVector v) {
                ArrowBuf data = v.getDataBuffer();
                for (int i = 0; i < count; i++) {
                    values[offset + i] = data.getLong((long) i * BigIntVector.TYPE_WIDTH);
                }
            } else if (vector instanceof DateDayVector v) {
                ArrowBuf data = v.getDataBuffer();
                for (int i = 0; i < count; i++) {
                    values[offset + i] = data.getInt((long) i * DateDayVector.TYPE_WIDTH);
                }
            } else if (vector instanceof DecimalVector v) {
                // precision <= 18: the unscaled value is the low long of the 128-bit little-endian value
                ArrowBuf data = v.getDataBuffer();
                for (int i = 0; i < count; i++) {
                    values[offset + i] = readLong(data, (long) i * DecimalVector.TYPE_WIDTH);
                }
            } else if (vector instanceof BitVector v) {
                for (int i = 0; i < count; i++) {
                    values[offset + i] = v.isNull(i) ? 0 : v.get(i);
                }
            } else if (vector instanceof TimeStampVector v) {
                for (int i = 0; i < count; i++) {
                    values[offset + i] = v.isNull(i) ? 0 : v.get(i);
                }
            } else if (vector instanceof BaseIntVector v) {
                for (int i = 0; i < count; i++) {
                    values[offset + i] = v.isNull(i) ? 0 : v.getValueAsLong(i);
                }
            } else if (!(vector instanceof NullVector)) {
                throw PlanChecks.planError("SortExec", "cannot sort by column %s of type %s", vector.getField().getName(), vector.getField().getType());
            }
        }

        @Override
        int compareValues(int row, SortColumn other, int otherRow) {
            return Long.compare(values[row], ((LongColumn) other).values[otherRow]);
        }
    }

    static final class DoubleColumn extends SortColumn {
        private final double[] values;

        DoubleColumn(SortKey key, boolean[] nulls, List<? extends FieldVector> vectors, int rows) {
            super(key, nulls);
            values = new double[rows];
            int row = 0;
            for (FieldVector vector : vectors) {
                int count = vector.getValueCount();
                for (int i = 0; i < count; i++, row++) {
                    if (!vector.isNull(i)) {
                        values[row] = vector instanceof Float8Vector v ? v.get(i) : ((Float4Vector) vector).get(i);
                    }
                }
            }
        }

        @Override
        int compareValues(int row, SortColumn other, int otherRow) {
            double a = values[row];
            double b = ((DoubleColumn) other).values[otherRow];
            // -0.0 equals 0.0 in SQL; NaN sorts after every number
            return a == b ? 0 : Double.compare(a, b);
        }
    }

    static final class WideDecimalColumn extends SortColumn {
        private final long[] high;
        private final long[] low;

        WideDecimalColumn(SortKey key, boolean[] nulls, List<? extends FieldVector> vectors, int rows) {
            super(key, nulls);
            high = new long[rows];
            low = new long[rows];
            int row = 0;
            for (FieldVector vector : vectors) {
                ArrowBuf data = vector.getDataBuffer();
                int count = vector.getValueCount();
                for (int i = 0; i < count; i++, row++) {
                    if (!vector.isNull(i)) {
                        low[row] = readLong(data, (long) i * DecimalVector.TYPE_WIDTH);
                        high[row] = readLong(data, (long) i * DecimalVector.TYPE_WIDTH + 8);
                    }
                }
            }
        }

        @Override
        int compareValues(int row, SortColumn other, int otherRow) {
            WideDecimalColumn that = (WideDecimalColumn) other;
            int result = Long.compare(high[row], that.high[otherRow]);
            return result != 0 ? result : Long.compareUnsigned(low[row], that.low[otherRow]);
        }
    }

    static final class BytesColumn extends SortColumn {
        private final byte[] data;
        private final int[] offsets;

        BytesColumn(SortKey key, boolean[] nulls, List<? extends FieldVector> vectors, int rows) {
            super(key, nulls);
            long total = 0;
            for (FieldVector vector : vectors) {
                BaseVariableWidthVector v = (BaseVariableWidthVector) vector;
                int count = v.getValueCount();
                if (count > 0) {
                    total += v.getOffsetBuffer().getInt((long) count * BaseVariableWidthVector.OFFSET_WIDTH)
                            - v.getOffsetBuffer().getInt(0);
                }
            }
            if (total > Integer.MAX_VALUE - 16) {
                throw new QuiverException(ErrorCode.NOT_SUPPORTED, "the string sort keys of one sort partition hold " + total
                        + " bytes, more than 2 GB: raise target_partitions, or sort on shorter keys");
            }
            data = new byte[(int) total];
            offsets = new int[rows + 1];
            int row = 0;
            int position = 0;
            for (FieldVector vector : vectors) {
                BaseVariableWidthVector v = (BaseVariableWidthVector) vector;
                ArrowBuf offsetBuffer = v.getOffsetBuffer();
                ArrowBuf dataBuffer = v.getDataBuffer();
                int count = v.getValueCount();
                for (int i = 0; i < count; i++, row++) {
                    offsets[row] = position;
                    if (!v.isNull(i)) {
                        int start = offsetBuffer.getInt((long) i * BaseVariableWidthVector.OFFSET_WIDTH);
                        int end = offsetBuffer.getInt((long) (i + 1) * BaseVariableWidthVector.OFFSET_WIDTH);
                        dataBuffer.getBytes(start, data, position, end - start);
                        position += end - start;
                    }
                }
            }
            offsets[row] = position;
        }

        @Override
        int compareValues(int row, SortColumn other, int otherRow) {
            BytesColumn that = (BytesColumn) other;
            return Arrays.compareUnsigned(data, offsets[row], offsets[row + 1], that.data, that.offsets[otherRow], that.offsets[otherRow + 1]);
        }
    }

    private static long readLong(ArrowBuf buffer, long index) {
        long value = buffer.getLong(index);
        return LITTLE_ENDIAN ? value : Long.reverseBytes(value);
    }
}
