package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The few 128-bit decimal operations aggregation needs, on unscaled values held as a low and a
 * high {@code long} (two's complement). Additions run on the words; the rarer operations done once
 * per group when results are produced (range checks beyond 18 digits, division, rescaling) go
 * through {@link BigInteger}.
 */
final class Decimal128 {
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private Decimal128() {}

    /** Whether the 128-bit value is a sign-extended {@code long}. */
    static boolean fitsLong(long low, long high) {
        return high == (low >> 63);
    }

    static BigInteger toBigInteger(long low, long high) {
        return BigInteger.valueOf(high).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(low)));
    }

    /** Whether the unscaled value has at most {@code precision} digits. */
    static boolean fitsPrecision(long low, long high, int precision) {
        if (fitsLong(low, high)) {
            return precision > 18 || (low > -POWERS_OF_TEN[precision] && low < POWERS_OF_TEN[precision]);
        }
        return toBigInteger(low, high).abs().compareTo(BigInteger.TEN.pow(precision)) < 0;
    }

    /** Checks a result fits its decimal type, or fails the query with NUMERIC_VALUE_OUT_OF_RANGE. */
    static void checkFits(long low, long high, ArrowType.Decimal type, String what) {
        if (!fitsPrecision(low, high, type.getPrecision())) {
            throw new QuiverException(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE, what + " = "
                    + new BigDecimal(toBigInteger(low, high), type.getScale()) + " does not fit " + QuiverTypes.sqlName(type));
        }
    }

    static void overflow(String what) {
        throw new QuiverException(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE, what + " overflows DECIMAL(38)");
    }

    /**
     * {@code sum / count} as an unscaled value of {@code resultScale}, rounded HALF_UP, written to
     * {@code out[0]} (low) and {@code out[1]} (high).
     */
    static void divideHalfUp(long low, long high, int sumScale, long count, int resultScale, long[] out) {
        if (sumScale == resultScale && fitsLong(low, high)) {
            long quotient = low / count;
            long remainder = low % count;
            if (Math.abs(remainder) >= count - Math.abs(remainder)) {
                quotient += low < 0 ? -1 : 1;
            }
            out[0] = quotient;
            out[1] = quotient >> 63;
            return;
        }
        BigDecimal sum = new BigDecimal(toBigInteger(low, high), sumScale);
        BigInteger result = sum.divide(BigDecimal.valueOf(count), resultScale, RoundingMode.HALF_UP).unscaledValue();
        out[0] = result.longValue();
        out[1] = result.shiftRight(64).longValue();
    }

    /** Rescales an unscaled value from one scale to another (HALF_UP when digits are dropped). */
    static void rescale(long low, long high, int fromScale, int toScale, long[] out) {
        BigInteger value = new BigDecimal(toBigInteger(low, high), fromScale).setScale(toScale, RoundingMode.HALF_UP).unscaledValue();
        out[0] = value.longValue();
        out[1] = value.shiftRight(64).longValue();
    }

    static double toDouble(long low, long high, int scale) {
        if (fitsLong(low, high)) {
            return scale < POWERS_OF_TEN.length ? low / (double) POWERS_OF_TEN[scale] : BigDecimal.valueOf(low, scale).doubleValue();
        }
        return new BigDecimal(toBigInteger(low, high), scale).doubleValue();
    }
}
