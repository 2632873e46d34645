package dev.quiver.engine.types;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.arrow.memory.ArrowBuf;

/**
 * A mutable signed 128-bit integer: the unscaled value of a decimal above precision 18, stored as
 * Arrow's {@code DecimalVector} stores it (two's complement, low word first). One instance serves
 * as a register for a whole batch, so hot loops do 128-bit math without allocating per row.
 * Operations throw {@link ArithmeticException} when a result does not fit 128 bits.
 */
public final class Decimal128 {
    private static final long[] POW10_HIGH = new long[39];
    private static final long[] POW10_LOW = new long[39];

    static {
        for (int i = 0; i < POW10_LOW.length; i++) {
            BigInteger power = BigInteger.TEN.pow(i);
            POW10_LOW[i] = power.longValue();
            POW10_HIGH[i] = power.shiftRight(64).longValue();
        }
    }

    private long high;
    private long low;

    public Decimal128() {}

    public long high() {
        return high;
    }

    public long low() {
        return low;
    }

    public Decimal128 set(long value) {
        this.high = value >> 63;
        this.low = value;
        return this;
    }

    public Decimal128 set(long high, long low) {
        this.high = high;
        this.low = low;
        return this;
    }

    public Decimal128 set(Decimal128 other) {
        return set(other.high, other.low);
    }

    /** Reads the decimal at row {@code index} of a {@code DecimalVector}'s data buffer. */
    public Decimal128 read(ArrowBuf data, int index) {
        long offset = (long) index * 16;
        return set(data.getLong(offset + 8), data.getLong(offset));
    }

    /** Writes this value at row {@code index} of a {@code DecimalVector}'s data buffer. */
    public void write(ArrowBuf data, int index) {
        long offset = (long) index * 16;
        data.setLong(offset, low);
        data.setLong(offset + 8, high);
    }

    public boolean isNegative() {
        return high < 0;
    }

    public boolean isZero() {
        return high == 0 && low == 0;
    }

    public boolean fitsInLong() {
        return high == (low >> 63);
    }

    public Decimal128 negate() {
        low = ~low + 1;
        high = ~high + (low == 0 ? 1 : 0);
        return this;
    }

    public Decimal128 add(long otherHigh, long otherLow) {
        long sumLow = low + otherLow;
        long carry = Long.compareUnsigned(sumLow, low) < 0 ? 1 : 0;
        long sumHigh = high + otherHigh + carry;
        if (((high ^ sumHigh) & (otherHigh ^ sumHigh)) < 0) {
            throw new ArithmeticException("128-bit overflow");
        }
        high = sumHigh;
        low = sumLow;
        return this;
    }

    public Decimal128 add(Decimal128 other) {
        return add(other.high, other.low);
    }

    public Decimal128 add(long value) {
        return add(value >> 63, value);
    }

    public Decimal128 subtract(Decimal128 other) {
        long negLow = ~other.low + 1;
        long negHigh = ~other.high + (negLow == 0 ? 1 : 0);
        if (other.high == Long.MIN_VALUE && other.low == 0) {
            throw new ArithmeticException("128-bit overflow");
        }
        return add(negHigh, negLow);
    }

    /** {@code this * (otherHigh, otherLow)}. */
    public Decimal128 multiply(long otherHigh, long otherLow) {
        boolean negative = (high < 0) != (otherHigh < 0);
        long aHigh = high;
        long aLow = low;
        if (aHigh < 0) {
            aLow = ~aLow + 1;
            aHigh = ~aHigh + (aLow == 0 ? 1 : 0);
        }
        long bHigh = otherHigh;
        long bLow = otherLow;
        if (bHigh < 0) {
            bLow = ~bLow + 1;
            bHigh = ~bHigh + (bLow == 0 ? 1 : 0);
        }
        if (aHigh != 0 && bHigh != 0) {
            throw new ArithmeticException("128-bit overflow");
        }
        long resultLow = aLow * bLow;
        long resultHigh = DecimalMath.unsignedMultiplyHigh(aLow, bLow);
        long cross = crossTerm(aHigh, bLow) + crossTerm(bHigh, aLow);
        long sumHigh = resultHigh + cross;
        if (Long.compareUnsigned(sumHigh, resultHigh) < 0 || sumHigh < 0) {
            throw new ArithmeticException("128-bit overflow");
        }
        high = sumHigh;
        low = resultLow;
        if (negative) {
            negate();
        }
        return this;
    }

    private static long crossTerm(long high, long low) {
        if (high == 0) {
            return 0;
        }
        if (DecimalMath.unsignedMultiplyHigh(high, low) != 0 || (high * low) < 0) {
            throw new ArithmeticException("128-bit overflow");
        }
        return high * low;
    }

    public Decimal128 multiply(Decimal128 other) {
        return multiply(other.high, other.low);
    }

    public Decimal128 multiply(long value) {
        return multiply(value >> 63, value);
    }

    /** {@code this * 10^n} for 0 <= n <= 38. */
    public Decimal128 scaleUp(int n) {
        if (n == 0) {
            return this;
        }
        if (n > 38) {
            if (isZero()) {
                return this;
            }
            throw new ArithmeticException("128-bit overflow");
        }
        return multiply(POW10_HIGH[n], POW10_LOW[n]);
    }

    /** Rescales from {@code fromScale} to {@code toScale}, rounding HALF_UP when scaling down. */
    public Decimal128 rescale(int fromScale, int toScale, Decimal128 scratch) {
        if (toScale >= fromScale) {
            return scaleUp(toScale - fromScale);
        }
        int n = fromScale - toScale;
        if (n > 38) {
            return set(0);
        }
        return divideRoundHalfUp(scratch.set(POW10_HIGH[n], POW10_LOW[n]), null);
    }

    /**
     * {@code this / divisor} rounded HALF_UP. {@code remainderOut}, if given, receives the truncated
     * remainder (sign of the dividend). The divisor must not be zero.
     */
    public Decimal128 divideRoundHalfUp(Decimal128 divisor, Decimal128 remainderOut) {
        return divide(divisor.high, divisor.low, true, remainderOut);
    }

    /** {@code this / divisor} truncated toward zero (SQL integer division); see {@link #divideRoundHalfUp}. */
    public Decimal128 divideTruncate(Decimal128 divisor, Decimal128 remainderOut) {
        return divide(divisor.high, divisor.low, false, remainderOut);
    }

    private Decimal128 divide(long divisorHigh, long divisorLow, boolean roundHalfUp, Decimal128 remainderOut) {
        if (divisorHigh == 0 && divisorLow == 0) {
            throw new ArithmeticException("division by zero");
        }
        boolean dividendNegative = high < 0;
        boolean negative = dividendNegative != (divisorHigh < 0);
        long aHigh = high;
        long aLow = low;
        if (dividendNegative) {
            aLow = ~aLow + 1;
            aHigh = ~aHigh + (aLow == 0 ? 1 : 0);
        }
        long bHigh = divisorHigh;
        long bLow = divisorLow;
        if (bHigh < 0) {
            bLow = ~bLow + 1;
            bHigh = ~bHigh + (bLow == 0 ? 1 : 0);
        }
        long qHigh;
        long qLow;
        long rHigh;
        long rLow;
        if (aHigh == 0 && bHigh == 0) {
            qHigh = 0;
            qLow = Long.divideUnsigned(aLow, bLow);
            rHigh = 0;
            rLow = Long.remainderUnsigned(aLow, bLow);
        } else {
            // shift-subtract long division on magnitudes: only reached above 64 bits, which is rare
            qHigh = 0;
            qLow = 0;
            rHigh = 0;
            rLow = 0;
            int bits = aHigh != 0 ? 128 - Long.numberOfLeadingZeros(aHigh) : 64 - Long.numberOfLeadingZeros(aLow);
            for (int i = bits - 1; i >= 0; i--) {
                rHigh = (rHigh << 1) | (rLow >>> 63);
                rLow = (rLow << 1) | (bit(aHigh, aLow, i));
                qHigh = (qHigh << 1) | (qLow >>> 63);
                qLow <<= 1;
                if (compareUnsigned(rHigh, rLow, bHigh, bLow) >= 0) {
                    long newLow = rLow - bLow;
                    rHigh = rHigh - bHigh - (Long.compareUnsigned(rLow, bLow) < 0 ? 1 : 0);
                    rLow = newLow;
                    qLow |= 1;
                }
            }
        }
        if (remainderOut != null) {
            remainderOut.set(rHigh, rLow);
            if (dividendNegative) {
                remainderOut.negate();
            }
        }
        if (roundHalfUp && (rHigh != 0 || rLow != 0)) {
            // round up when 2r >= b, i.e. r >= b - r
            long diffLow = bLow - rLow;
            long diffHigh = bHigh - rHigh - (Long.compareUnsigned(bLow, rLow) < 0 ? 1 : 0);
            if (compareUnsigned(rHigh, rLow, diffHigh, diffLow) >= 0) {
                qLow++;
                if (qLow == 0) {
                    qHigh++;
                }
            }
        }
        high = qHigh;
        low = qLow;
        if (negative) {
            negate();
        }
        return this;
    }

    private static long bit(long high, long low, int index) {
        return index >= 64 ? (high >>> (index - 64)) & 1 : (low >>> index) & 1;
    }

    private static int compareUnsigned(long aHigh, long aLow, long bHigh, long bLow) {
        int byHigh = Long.compareUnsigned(aHigh, bHigh);
        return byHigh != 0 ? byHigh : Long.compareUnsigned(aLow, bLow);
    }

    /** Signed comparison of two 128-bit values. */
    public static int compare(long aHigh, long aLow, long bHigh, long bLow) {
        int byHigh = Long.compare(aHigh, bHigh);
        return byHigh != 0 ? byHigh : Long.compareUnsigned(aLow, bLow);
    }

    public int compareTo(Decimal128 other) {
        return compare(high, low, other.high, other.low);
    }

    /** Whether {@code |value| >= 10^precision}: the value does not fit DECIMAL(precision, s). */
    public static boolean exceedsPrecision(long high, long low, int precision) {
        if (precision >= 39) {
            return false;
        }
        if (high < 0) {
            low = ~low + 1;
            high = ~high + (low == 0 ? 1 : 0);
            if (high < 0) {
                return true; // the minimum 128-bit value
            }
        }
        return compareUnsigned(high, low, POW10_HIGH[precision], POW10_LOW[precision]) >= 0;
    }

    public boolean exceedsPrecision(int precision) {
        return exceedsPrecision(high, low, precision);
    }

    public double toDouble() {
        if (fitsInLong()) {
            return low;
        }
        boolean negative = high < 0;
        long mHigh = high;
        long mLow = low;
        if (negative) {
            mLow = ~mLow + 1;
            mHigh = ~mHigh + (mLow == 0 ? 1 : 0);
        }
        double magnitude = unsignedToDouble(mHigh) * 0x1p64 + unsignedToDouble(mLow);
        return negative ? -magnitude : magnitude;
    }

    private static double unsignedToDouble(long value) {
        double d = (double) (value & Long.MAX_VALUE);
        return value < 0 ? d + 0x1p63 : d;
    }

    /** The value as a BigDecimal of the given scale (for results and tests, not hot loops). */
    public BigDecimal toBigDecimal(int scale) {
        BigInteger unscaled = BigInteger.valueOf(high).shiftLeft(64).or(new BigInteger(Long.toUnsignedString(low)));
        return new BigDecimal(unscaled, scale);
    }

    /** Sets this to the unscaled value of {@code value}; it must fit 128 bits. */
    public Decimal128 set(BigInteger unscaled) {
        if (unscaled.bitLength() > 127) {
            throw new ArithmeticException("128-bit overflow");
        }
        return set(unscaled.shiftRight(64).longValue(), unscaled.longValue());
    }

    @Override
    public String toString() {
        return toBigDecimal(0).toString();
    }
}
