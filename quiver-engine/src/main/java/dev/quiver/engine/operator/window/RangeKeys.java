package dev.quiver.engine.operator.window;

import dev.quiver.engine.expr.kernel.DateKernels;
import dev.quiver.engine.operator.sort.SortKey;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.stream.Stream;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The ORDER BY key of a RANGE frame with offsets, over the rows of a chunk, and the search for
 * where {@code key - N} and {@code key + N} fall among the sorted keys of a partition.
 *
 * <p>Values are compared exactly: integers and decimals as unscaled {@code long}s at the larger of
 * the key's and the offset's scale (or {@link BigDecimal} when that overflows), dates as days (or
 * microseconds when an offset is not a whole number of days), timestamps as microseconds, doubles
 * as {@code double}. An offset of months moves dates and timestamps by calendar months, clamped to
 * the month's last day as {@code date + INTERVAL} does. A bound beyond the range of {@code long}
 * saturates: it includes every row on that side.
 *
 * <p>NULL keys sort together at one end of their partition and are peers of each other only: for a
 * non-NULL current row a bound with an offset stops at the non-NULL rows; for a NULL current row it
 * is the NULL peer group (decided by {@link FrameBounds}).
 */
final class RangeKeys {
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    /** How values are held. */
    private enum Unit { SCALED, DAYS, MICROS, DOUBLE, DECIMAL }

    private final Unit unit;
    private final boolean ascending;
    private final boolean[] nulls;
    private final long[] longs;
    private final double[] doubles;
    private final BigDecimal[] decimals;
    /** The scale of SCALED values. */
    private final int scale;

    private RangeKeys(Unit unit, boolean ascending, boolean[] nulls, long[] longs, double[] doubles, BigDecimal[] decimals, int scale) {
        this.unit = unit;
        this.ascending = ascending;
        this.nulls = nulls;
        this.longs = longs;
        this.doubles = doubles;
        this.decimals = decimals;
        this.scale = scale;
    }

    /** Whether an offset can move a key of {@code keyType}: numbers for numeric keys, intervals for dates and timestamps. */
    static boolean accepts(ArrowType keyType, FrameOffset offset) {
        boolean temporal = keyType instanceof ArrowType.Date || keyType instanceof ArrowType.Timestamp;
        boolean numeric = keyType instanceof ArrowType.Int || keyType instanceof ArrowType.Decimal || keyType instanceof ArrowType.FloatingPoint;
        return temporal ? offset instanceof FrameOffset.Interval : numeric && offset instanceof FrameOffset.Number;
    }

    /** Bytes the keys of {@code rows} rows take. */
    static long estimateBytes(int rows) {
        return 9L * rows;
    }

    /** The keys of {@code vector} (the chunk's ORDER BY key), prepared for the offsets of {@code frame}. */
    static RangeKeys of(FieldVector vector, SortKey key, WindowFrame frame) {
        int rows = vector.getValueCount();
        boolean[] nulls = new boolean[rows];
        for (int i = 0; i < rows; i++) {
            nulls[i] = vector.isNull(i);
        }
        ArrowType type = vector.getField().getType();
        boolean ascending = key.ascending();
        if (type instanceof ArrowType.FloatingPoint) {
            double[] values = new double[rows];
            for (int i = 0; i < rows; i++) {
                values[i] = nulls[i] ? 0 : ((Float8Vector) vector).get(i);
            }
            return new RangeKeys(Unit.DOUBLE, ascending, nulls, null, values, null, 0);
        }
        if (type instanceof ArrowType.Date || type instanceof ArrowType.Timestamp) {
            boolean partialDays = offsets(frame).anyMatch(o -> ((FrameOffset.Interval) o).micros() % MICROS_PER_DAY != 0);
            Unit unit = type instanceof ArrowType.Timestamp || partialDays ? Unit.MICROS : Unit.DAYS;
            long[] values = new long[rows];
            for (int i = 0; i < rows; i++) {
                if (!nulls[i]) {
                    values[i] = vector instanceof DateDayVector dates
                            ? (unit == Unit.MICROS ? dates.get(i) * MICROS_PER_DAY : dates.get(i))
                            : ((TimeStampVector) vector).get(i);
                }
            }
            return new RangeKeys(unit, ascending, nulls, values, null, null, 0);
        }
        int keyScale = type instanceof ArrowType.Decimal decimal ? decimal.getScale() : 0;
        int targetScale = Math.max(keyScale, offsets(frame)
                .mapToInt(o -> Math.max(0, ((FrameOffset.Number) o).value().stripTrailingZeros().scale())).max().orElse(0));
        long[] values = new long[rows];
        if (loadScaledLongs(vector, nulls, keyScale, targetScale, values)) {
            return new RangeKeys(Unit.SCALED, ascending, nulls, values, null, null, targetScale);
        }
        BigDecimal[] decimals = new BigDecimal[rows];
        for (int i = 0; i < rows; i++) {
            decimals[i] = nulls[i] ? null : decimal(vector, i);
        }
        return new RangeKeys(Unit.DECIMAL, ascending, nulls, null, null, decimals, 0);
    }

    private static Stream<FrameOffset> offsets(WindowFrame frame) {
        return Stream.of(frame.start(), frame.end()).filter(FrameBound::hasOffset).map(b -> b.offset().orElseThrow());
    }

    /** Loads integer or decimal keys as unscaled longs at {@code targetScale}; false when one does not fit. */
    private static boolean loadScaledLongs(FieldVector vector, boolean[] nulls, int keyScale, int targetScale, long[] out) {
        if (targetScale - keyScale > 18 || (vector instanceof DecimalVector d && d.getPrecision() > 18)) {
            return false;
        }
        long factor = BigInteger.TEN.pow(targetScale - keyScale).longValueExact();
        for (int i = 0; i < out.length; i++) {
            if (nulls[i]) {
                continue;
            }
            long value;
            if (vector instanceof IntVector ints) {
                value = ints.get(i);
            } else if (vector instanceof BigIntVector longs) {
                value = longs.get(i);
            } else {
                value = ((DecimalVector) vector).getDataBuffer().getLong((long) i * DecimalVector.TYPE_WIDTH);
            }
            long scaled = value * factor;
            if (factor != 1 && (Math.multiplyHigh(value, factor) != (scaled >> 63))) {
                return false;
            }
            out[i] = scaled;
        }
        return true;
    }

    private static BigDecimal decimal(FieldVector vector, int row) {
        if (vector instanceof DecimalVector decimals) {
            return decimals.getObject(row);
        }
        return BigDecimal.valueOf(vector instanceof IntVector ints ? ints.get(row) : ((BigIntVector) vector).get(row));
    }

    boolean isNull(int row) {
        return nulls[row];
    }

    /**
     * Where a bound with an offset falls for non-NULL row {@code row} of a partition whose non-NULL
     * keys are rows {@code [from, to)}: for a frame start the first row not before {@code key ∓ N}
     * in the sort order, for a frame end the first row after it.
     */
    int search(int row, FrameBound bound, boolean frameEnd, int from, int to) {
        FrameOffset offset = bound.offset().orElseThrow();
        // In sort order PRECEDING moves towards the start: subtract on an ascending key, add on a descending one.
        boolean subtract = (bound.kind() == FrameBound.Kind.PRECEDING) == ascending;
        return switch (unit) {
            case DOUBLE -> {
                double amount = ((FrameOffset.Number) offset).value().doubleValue();
                yield searchDouble(subtract ? doubles[row] - amount : doubles[row] + amount, frameEnd, from, to);
            }
            case DECIMAL -> {
                BigDecimal amount = ((FrameOffset.Number) offset).value();
                yield searchDecimal(subtract ? decimals[row].subtract(amount) : decimals[row].add(amount), frameEnd, from, to);
            }
            default -> searchLong(target(longs[row], offset, subtract), frameEnd, from, to);
        };
    }

    private long target(long key, FrameOffset offset, boolean subtract) {
        if (offset instanceof FrameOffset.Number number) {
            BigDecimal scaled = number.value().movePointRight(scale);
            long amount = scaled.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : scaled.longValue();
            return subtract ? saturatedSubtract(key, amount) : saturatedAdd(key, amount);
        }
        FrameOffset.Interval interval = (FrameOffset.Interval) offset;
        long value = key;
        if (interval.months() != 0) {
            value = addMonths(value, subtract ? -interval.months() : interval.months());
        }
        long amount = unit == Unit.DAYS ? interval.micros() / MICROS_PER_DAY : interval.micros();
        return subtract ? saturatedSubtract(value, amount) : saturatedAdd(value, amount);
    }

    private long addMonths(long value, int months) {
        if (unit == Unit.DAYS) {
            return DateKernels.addMonths((int) value, months);
        }
        long days = Math.floorDiv(value, MICROS_PER_DAY);
        long timeOfDay = Math.floorMod(value, MICROS_PER_DAY);
        return DateKernels.addMonths((int) days, months) * MICROS_PER_DAY + timeOfDay;
    }

    /** Rows before the result are before {@code target} in sort order (start), or not after it (end). */
    private int searchLong(long target, boolean frameEnd, int from, int to) {
        int low = from;
        int high = to;
        while (low < high) {
            int middle = (low + high) >>> 1;
            int order = ascending ? Long.compare(longs[middle], target) : Long.compare(target, longs[middle]);
            if (order < 0 || (frameEnd && order == 0)) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    private int searchDouble(double target, boolean frameEnd, int from, int to) {
        int low = from;
        int high = to;
        while (low < high) {
            int middle = (low + high) >>> 1;
            int order = ascending ? compareDoubles(doubles[middle], target) : compareDoubles(target, doubles[middle]);
            if (order < 0 || (frameEnd && order == 0)) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    private static int compareDoubles(double a, double b) {
        // as the sort does: -0.0 equals 0.0, NaN after every number
        return a == b ? 0 : Double.compare(a, b);
    }

    private int searchDecimal(BigDecimal target, boolean frameEnd, int from, int to) {
        int low = from;
        int high = to;
        while (low < high) {
            int middle = (low + high) >>> 1;
            int order = ascending ? decimals[middle].compareTo(target) : target.compareTo(decimals[middle]);
            if (order < 0 || (frameEnd && order == 0)) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? (b > 0 ? Long.MAX_VALUE : Long.MIN_VALUE) : sum;
    }

    private static long saturatedSubtract(long a, long b) {
        long difference = a - b;
        return ((a ^ b) & (a ^ difference)) < 0 ? (b > 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : difference;
    }
}
