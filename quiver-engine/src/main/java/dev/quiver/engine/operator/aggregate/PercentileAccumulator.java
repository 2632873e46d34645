package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.operator.sort.IntSort;
import dev.quiver.engine.types.Decimal128;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * PERCENTILE_CONT and PERCENTILE_DISC (also MEDIAN and DuckDB's QUANTILE_CONT/QUANTILE_DISC) of a
 * group's values in ascending or descending order, with DuckDB's rules:
 *
 * <ul>
 * <li>DISC: the value at position {@code max(0, ceil(n * f) - 1)} (the first whose cumulative
 *     distribution reaches f), computed exactly from the decimal fraction.</li>
 * <li>CONT: with {@code r = (n - 1) * f}, the values at positions {@code floor(r)} and
 *     {@code ceil(r)} interpolated with weight {@code d = r - floor(r)}: as DOUBLEs
 *     {@code lo * (1 - d) + hi * d} (integer and DOUBLE values, DOUBLE result); as unscaled decimals
 *     {@code lo + (hi - lo) * d} truncated toward zero (a DECIMAL keeps its type); as microseconds
 *     rounded half away from zero (DATE and TIMESTAMP values give a TIMESTAMP); other types take
 *     the lower value.</li>
 * </ul>
 */
final class PercentileAccumulator extends HolisticAccumulator {
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    private final boolean continuous;
    private final BigDecimal fraction;
    private final boolean descending;
    private final ArrowType resultType;

    PercentileAccumulator(AggregateFunction function, BigDecimal fraction, boolean descending, ArrowType valueType, ArrowType resultType) {
        super(List.of(valueType));
        this.continuous = function == AggregateFunction.PERCENTILE_CONT;
        this.fraction = fraction;
        this.descending = descending;
        this.resultType = resultType;
    }

    @Override
    protected void evaluateGroup(int start, int end, FieldVector out, int index) {
        GatheredColumn values = rows.column(0);
        int[] order = rows.order();
        IntSort.sort(order, start, end, values::compareValues);
        int n = end - start;
        if (!continuous) {
            int position = new BigDecimal(n).multiply(fraction).setScale(0, RoundingMode.CEILING).intValueExact() - 1;
            values.write(out, index, order[start + ordered(Math.max(0, position), n)]);
            return;
        }
        double r = (n - 1) * fraction.doubleValue();
        int lower = (int) Math.floor(r);
        int upper = (int) Math.ceil(r);
        int lo = order[start + ordered(lower, n)];
        int hi = order[start + ordered(upper, n)];
        interpolate(values, lo, hi, r - lower, out, index);
    }

    /** The ascending position of the {@code position}-th value in the function's order. */
    private int ordered(int position, int n) {
        return descending ? n - 1 - position : position;
    }

    private void interpolate(GatheredColumn values, int lo, int hi, double d, FieldVector out, int index) {
        if (resultType instanceof ArrowType.FloatingPoint) {
            double low = asDouble(values, lo);
            double high = asDouble(values, hi);
            ((Float8Vector) out).set(index, lo == hi ? low : low * (1 - d) + high * d);
        } else if (resultType instanceof ArrowType.Timestamp) {
            double low = micros(values, lo);
            double high = micros(values, hi);
            ((TimeStampVector) out).set(index, lo == hi ? (long) low : roundHalfAway(low * (1 - d) + high * d));
        } else if (resultType instanceof ArrowType.Decimal && values instanceof GatheredColumn.DecimalColumn decimals) {
            interpolateDecimal(decimals, lo, hi, d, out, index);
        } else {
            values.write(out, index, lo);
        }
    }

    private static void interpolateDecimal(GatheredColumn.DecimalColumn values, int lo, int hi, double d, FieldVector out, int index) {
        long lowLow = values.low(lo);
        long highLow = values.low(hi);
        if (lo == hi) {
            values.write(out, index, lo);
        } else if (DecimalResults.fitsLong(lowLow, values.high(lo)) && DecimalResults.fitsLong(highLow, values.high(hi))) {
            long result = (long) (lowLow + (highLow - lowLow) * d);
            Columns.setDecimal(out, index, result, result >> 63);
        } else {
            BigDecimal low = values.toBigDecimal(lo);
            BigDecimal delta = values.toBigDecimal(hi).subtract(low);
            BigDecimal result = low.add(delta.multiply(new BigDecimal(d))).setScale(values.scale(), RoundingMode.DOWN);
            Decimal128 unscaled = new Decimal128().set(result.unscaledValue());
            Columns.setDecimal(out, index, unscaled.low(), unscaled.high());
        }
    }

    private static double asDouble(GatheredColumn values, int row) {
        if (values instanceof GatheredColumn.DoubleColumn doubles) {
            return doubles.value(row);
        }
        if (values instanceof GatheredColumn.DecimalColumn decimals) {
            return DecimalResults.toDouble(decimals.low(row), decimals.high(row), decimals.scale());
        }
        return ((GatheredColumn.LongColumn) values).value(row);
    }

    private static double micros(GatheredColumn values, int row) {
        GatheredColumn.LongColumn longs = (GatheredColumn.LongColumn) values;
        return longs.kind() == ColumnKind.DATE ? (double) (longs.value(row) * MICROS_PER_DAY) : longs.value(row);
    }

    /** C's {@code llround}: halves round away from zero. */
    private static long roundHalfAway(double value) {
        return (long) (value < 0 ? -Math.floor(-value + 0.5) : Math.floor(value + 0.5));
    }
}
