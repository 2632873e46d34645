package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.Decimal128;
import dev.quiver.engine.types.DecimalMath;
import dev.quiver.engine.types.QuiverTypes;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * What aggregation does with a 128-bit decimal (a low and a high {@code long}) once per group,
 * when results are produced: range checks, division for AVG, rescaling. The arithmetic is
 * {@link Decimal128}'s; this class adds the aggregate's error messages.
 */
final class DecimalResults {
    private DecimalResults() {}

    /** Whether the 128-bit value is a sign-extended {@code long}. */
    static boolean fitsLong(long low, long high) {
        return high == (low >> 63);
    }

    /** Checks a result fits its decimal type, or fails the query with NUMERIC_VALUE_OUT_OF_RANGE. */
    static void checkFits(long low, long high, ArrowType.Decimal type, String what) {
        if (Decimal128.exceedsPrecision(high, low, type.getPrecision())) {
            throw new QuiverException(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE, what + " = "
                    + new Decimal128().set(high, low).toBigDecimal(type.getScale()) + " does not fit " + QuiverTypes.sqlName(type));
        }
    }

    static void overflow(String what) {
        throw new QuiverException(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE, what + " overflows DECIMAL(38)");
    }

    /**
     * {@code sum / count} as an unscaled value of {@code resultScale}, rounded HALF_UP once, written
     * to {@code out[0]} (low) and {@code out[1]} (high).
     */
    static void divideHalfUp(long low, long high, int sumScale, long count, int resultScale, long[] out) {
        try {
            Decimal128 value = new Decimal128().set(high, low);
            Decimal128 divisor = new Decimal128().set(count);
            if (resultScale >= sumScale) {
                value.scaleUp(resultScale - sumScale);
            } else {
                divisor.scaleUp(sumScale - resultScale);
            }
            value.divideRoundHalfUp(divisor, null);
            out[0] = value.low();
            out[1] = value.high();
        } catch (ArithmeticException e) {
            overflow("AVG");
        }
    }

    /** Rescales an unscaled value from one scale to another (HALF_UP when digits are dropped). */
    static void rescale(long low, long high, int fromScale, int toScale, long[] out) {
        try {
            Decimal128 value = new Decimal128().set(high, low).rescale(fromScale, toScale, new Decimal128());
            out[0] = value.low();
            out[1] = value.high();
        } catch (ArithmeticException e) {
            overflow("SUM");
        }
    }

    static double toDouble(long low, long high, int scale) {
        if (fitsLong(low, high) && scale <= 18) {
            return low / (double) DecimalMath.powerOfTen(scale);
        }
        return new Decimal128().set(high, low).toBigDecimal(scale).doubleValue();
    }
}
