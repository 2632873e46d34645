package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.types.Decimal128;
import java.util.Optional;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A comparison of a column with a constant as the values it passes: every value in
 * {@code [low, high]}, or every value outside it when {@code outside} ({@code <>}), or none. The
 * values are the column's unscaled 64-bit integers, read straight off its buffer (see
 * {@link #directWidth}).
 */
public record LongRange(long low, long high, boolean outside, boolean none) {
    private static final LongRange NONE = new LongRange(1, 0, false, true);

    /**
     * {@code column op constant} as a range over the column's unscaled values, when the constant
     * is exact at the column's scale and fits 64 bits; empty otherwise (the comparison then needs
     * the general kernel). {@code op} is one of {@code = <> < <= > >=}.
     */
    public static Optional<LongRange> of(BinaryOperator op, ArrowType columnType, Object constant, ArrowType constantType) {
        int columnScale = Numeric.scale(columnType);
        int constantScale = Numeric.scale(constantType);
        if (constantScale > columnScale) {
            return Optional.empty();
        }
        Decimal128 scaled = Numeric.constant128(constant, constantType);
        try {
            scaled.scaleUp(columnScale - constantScale);
        } catch (ArithmeticException e) {
            return Optional.empty();
        }
        if (!scaled.fitsInLong()) {
            return Optional.empty();
        }
        long c = scaled.low();
        return Optional.of(switch (op) {
            case EQ -> new LongRange(c, c, false, false);
            case NOT_EQ -> new LongRange(c, c, true, false);
            case LT -> c == Long.MIN_VALUE ? NONE : new LongRange(Long.MIN_VALUE, c - 1, false, false);
            case LT_EQ -> new LongRange(Long.MIN_VALUE, c, false, false);
            case GT -> c == Long.MAX_VALUE ? NONE : new LongRange(c + 1, Long.MAX_VALUE, false, false);
            case GT_EQ -> new LongRange(c, Long.MAX_VALUE, false, false);
            default -> throw new IllegalArgumentException("not a comparison: " + op);
        });
    }

    /** The values both ranges pass, where neither is {@code outside}. */
    public LongRange intersect(LongRange other) {
        if (outside || other.outside) {
            throw new IllegalArgumentException("only ranges of values inside their bounds intersect: " + this + ", " + other);
        }
        long from = Math.max(low, other.low);
        long to = Math.min(high, other.high);
        return none || other.none || from > to ? NONE : new LongRange(from, to, false, false);
    }

    /**
     * Bytes per value when {@code vector} holds integers of at most 64 bits that kernels read
     * directly (INTEGER, DATE, BIGINT, TIMESTAMP, and DECIMAL of at most 18 digits, whose 16-byte
     * values are then their low word); 0 otherwise.
     */
    public static int directWidth(FieldVector vector, ArrowType type) {
        if (vector instanceof IntVector || vector instanceof DateDayVector) {
            return 4;
        }
        if (vector instanceof BigIntVector || vector instanceof TimeStampVector) {
            return 8;
        }
        if (vector instanceof DecimalVector && Numeric.precision(type) <= 18) {
            return 16;
        }
        return 0;
    }
}
