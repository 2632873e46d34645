package dev.quiver.engine.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Decimal128Test {
    private static final BigInteger MAX = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);
    private static final BigInteger MIN = BigInteger.ONE.shiftLeft(127).negate();

    private static BigInteger random(Random random) {
        int bits = 1 + random.nextInt(126);
        BigInteger value = new BigInteger(bits, random);
        return random.nextBoolean() ? value.negate() : value;
    }

    private static BigInteger value(Decimal128 d) {
        return d.toBigDecimal(0).toBigIntegerExact();
    }

    private static boolean fits(BigInteger value) {
        return value.compareTo(MAX) <= 0 && value.compareTo(MIN) >= 0;
    }

    @Test
    void arithmeticMatchesBigInteger() {
        Random random = new Random(7);
        Decimal128 a = new Decimal128();
        Decimal128 b = new Decimal128();
        Decimal128 remainder = new Decimal128();
        for (int i = 0; i < 20_000; i++) {
            BigInteger x = random(random);
            BigInteger y = random(random);
            checkOp(x.add(y), () -> a.set(x).add(b.set(y)), a);
            checkOp(x.subtract(y), () -> a.set(x).subtract(b.set(y)), a);
            checkOp(x.multiply(y), () -> a.set(x).multiply(b.set(y)), a);
            if (y.signum() != 0) {
                BigDecimal exact = new BigDecimal(x).divide(new BigDecimal(y), 0, RoundingMode.HALF_UP);
                a.set(x).divideRoundHalfUp(b.set(y), remainder);
                assertThat(value(a)).as("%s / %s", x, y).isEqualTo(exact.toBigIntegerExact());
                assertThat(value(remainder)).isEqualTo(x.remainder(y));
                a.set(x).divideTruncate(b.set(y), null);
                assertThat(value(a)).isEqualTo(x.divide(y));
            }
            assertThat(Integer.signum(a.set(x).compareTo(b.set(y)))).isEqualTo(x.compareTo(y));
            assertThat(a.set(x).toDouble()).isCloseTo(x.doubleValue(), org.assertj.core.data.Percentage.withPercentage(1e-9));
        }
    }

    private static void checkOp(BigInteger expected, Runnable op, Decimal128 result) {
        if (fits(expected)) {
            op.run();
            assertThat(value(result)).isEqualTo(expected);
        } else {
            assertThatThrownBy(op::run).isInstanceOf(ArithmeticException.class);
        }
    }

    @Test
    void smallValuesAndRounding() {
        Decimal128 a = new Decimal128();
        Decimal128 b = new Decimal128();
        assertThat(value(a.set(-15).divideRoundHalfUp(b.set(10), null))).isEqualTo(BigInteger.valueOf(-2));
        assertThat(value(a.set(14).divideRoundHalfUp(b.set(10), null))).isEqualTo(BigInteger.valueOf(1));
        assertThat(value(a.set(12345).rescale(2, 0, b))).isEqualTo(BigInteger.valueOf(123));
        assertThat(value(a.set(-12350).rescale(2, 0, b))).isEqualTo(BigInteger.valueOf(-124));
        assertThat(value(a.set(7).scaleUp(30))).isEqualTo(BigInteger.valueOf(7).multiply(BigInteger.TEN.pow(30)));
        assertThat(a.set(BigInteger.TEN.pow(38).subtract(BigInteger.ONE)).exceedsPrecision(38)).isFalse();
        assertThat(a.set(BigInteger.TEN.pow(38)).exceedsPrecision(38)).isTrue();
        assertThat(a.set(BigInteger.TEN.pow(38).negate()).exceedsPrecision(38)).isTrue();
        assertThat(a.set(-99).exceedsPrecision(2)).isFalse();
        assertThat(a.set(-100).exceedsPrecision(2)).isTrue();
        assertThatThrownBy(() -> a.set(1).divideRoundHalfUp(b.set(0), null)).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void longHelpers() {
        assertThat(DecimalMath.divideRoundHalfUp(25, 10)).isEqualTo(3);
        assertThat(DecimalMath.divideRoundHalfUp(-25, 10)).isEqualTo(-3);
        assertThat(DecimalMath.divideRoundHalfUp(24, -10)).isEqualTo(-2);
        assertThat(DecimalMath.rescale(12345, 3, 1)).isEqualTo(123);
        assertThat(DecimalMath.rescale(12355, 3, 1)).isEqualTo(124);
        assertThat(DecimalMath.rescale(12, 0, 3)).isEqualTo(12000);
        assertThat(DecimalMath.exceedsPrecision(99999, 5)).isFalse();
        assertThat(DecimalMath.exceedsPrecision(-100000, 5)).isTrue();
        assertThatThrownBy(() -> DecimalMath.scaleUp(Long.MAX_VALUE / 5, 1)).isInstanceOf(ArithmeticException.class);
        Random random = new Random(3);
        for (int i = 0; i < 10_000; i++) {
            long x = random.nextLong();
            long y = random.nextLong();
            BigInteger expected = BigInteger.valueOf(x).multiply(BigInteger.valueOf(y));
            long unsignedHigh = DecimalMath.unsignedMultiplyHigh(x, y);
            BigInteger unsigned = new BigInteger(Long.toUnsignedString(x)).multiply(new BigInteger(Long.toUnsignedString(y)));
            assertThat(unsignedHigh).isEqualTo(unsigned.shiftRight(64).longValue());
            assertThat(expected.signum() == 0 || expected.bitLength() > 0).isTrue();
        }
    }
}
