package dev.quiver.engine.types;

/**
 * Decimal arithmetic on unscaled {@code long} values (precision up to 18), the fast path of
 * decimal evaluation and aggregation. Methods throw {@link ArithmeticException} on overflow of a
 * {@code long}; callers fall back to {@link Decimal128} or report NUMERIC_VALUE_OUT_OF_RANGE.
 */
public final class DecimalMath {
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        long power = 1;
        for (int i = 0; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = power;
            power *= 10;
        }
    }

    private DecimalMath() {}

    /** 10^n for 0 <= n <= 18. */
    public static long powerOfTen(int n) {
        return POWERS_OF_TEN[n];
    }

    /** Whether {@code |value| >= 10^precision}, i.e. it does not fit DECIMAL(precision, s). */
    public static boolean exceedsPrecision(long value, int precision) {
        if (precision > 18) {
            return false;
        }
        long limit = POWERS_OF_TEN[precision];
        return value >= limit || value <= -limit;
    }

    /** {@code value * 10^n}, exactly. */
    public static long scaleUp(long value, int n) {
        if (n == 0) {
            return value;
        }
        if (n > 18) {
            if (value == 0) {
                return 0;
            }
            throw new ArithmeticException("decimal overflow");
        }
        return Math.multiplyExact(value, POWERS_OF_TEN[n]);
    }

    /** {@code value} rescaled from {@code fromScale} to {@code toScale}, rounding HALF_UP. */
    public static long rescale(long value, int fromScale, int toScale) {
        if (toScale >= fromScale) {
            return scaleUp(value, toScale - fromScale);
        }
        int n = fromScale - toScale;
        if (n > 18) {
            return 0;
        }
        return divideRoundHalfUp(value, POWERS_OF_TEN[n]);
    }

    /** {@code dividend / divisor} rounded HALF_UP (away from zero on ties); divisor must not be 0. */
    public static long divideRoundHalfUp(long dividend, long divisor) {
        long quotient = dividend / divisor;
        long remainder = dividend % divisor;
        if (remainder != 0) {
            // |remainder| * 2 >= |divisor|, computed without overflow
            long absRemainder = Math.abs(remainder);
            long absDivisor = divisor == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(divisor);
            if (absRemainder >= absDivisor - absRemainder) {
                quotient += ((dividend ^ divisor) < 0) ? -1 : 1;
            }
        }
        return quotient;
    }

    /** The unsigned high 64 bits of the 128-bit product of two unsigned longs. */
    public static long unsignedMultiplyHigh(long x, long y) {
        return Math.multiplyHigh(x, y) + ((x >> 63) & y) + ((y >> 63) & x);
    }
}
