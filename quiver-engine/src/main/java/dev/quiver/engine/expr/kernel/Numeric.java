package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.Decimal128;
import dev.quiver.engine.types.DecimalMath;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Decodes numeric operands into primitive arrays for the arithmetic and comparison loops:
 * integers, dates, timestamps and decimals as unscaled {@code long}s (with the type's scale),
 * or as two {@code long}s per value above 64 bits, or as {@code double}s. NULL rows decode as 0,
 * so they never cause a spurious overflow.
 */
public final class Numeric {
    private Numeric() {}

    /** The decimal scale of a numeric type (0 for integers, dates, timestamps). */
    public static int scale(ArrowType type) {
        return type instanceof ArrowType.Decimal d ? d.getScale() : 0;
    }

    public static int precision(ArrowType type) {
        if (type instanceof ArrowType.Decimal d) {
            return d.getPrecision();
        }
        if (type instanceof ArrowType.Int i) {
            return i.getBitWidth() == 32 ? 10 : 19;
        }
        return 19;
    }

    public static boolean isLongDomain(ArrowType type) {
        return type instanceof ArrowType.Int || type instanceof ArrowType.Decimal || type instanceof ArrowType.Date
                || type instanceof ArrowType.Timestamp || type instanceof ArrowType.Bool;
    }

    /**
     * The operand's unscaled values as longs, or null when some value needs more than 64 bits
     * (then use {@link #decode128}).
     */
    public static long[] decodeLongs(Operand operand) {
        int rows = operand.rows();
        long[] values = new long[rows];
        if (operand.isConstant()) {
            if (operand.constant() != null) {
                Decimal128 value = constant128(operand.constant(), operand.type());
                if (!value.fitsInLong()) {
                    return null;
                }
                Arrays.fill(values, value.low());
            }
            return values;
        }
        FieldVector vector = operand.vector();
        ArrowBuf data = vector.getDataBuffer();
        if (vector instanceof IntVector || vector instanceof DateDayVector) {
            for (int i = 0; i < rows; i++) {
                values[i] = data.getInt((long) i * 4);
            }
        } else if (vector instanceof BigIntVector || vector instanceof TimeStampVector) {
            for (int i = 0; i < rows; i++) {
                values[i] = data.getLong((long) i * 8);
            }
        } else if (vector instanceof DecimalVector) {
            boolean wide = precision(operand.type()) > 18;
            for (int i = 0; i < rows; i++) {
                long low = data.getLong((long) i * 16);
                if (wide && data.getLong((long) i * 16 + 8) != (low >> 63) && !vector.isNull(i)) {
                    return null;
                }
                values[i] = low;
            }
        } else if (vector instanceof BitVector) {
            // the raw bits: BitVector.get throws on a NULL slot (the NULLs are zeroed below)
            for (int i = 0; i < rows; i++) {
                values[i] = BitVectorHelper.get(data, i);
            }
        } else {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "not an integer or decimal vector: " + vector.getField());
        }
        if (vector.getNullCount() > 0) {
            for (int i = 0; i < rows; i++) {
                if (vector.isNull(i)) {
                    values[i] = 0;
                }
            }
        }
        return values;
    }

    /** The operand's unscaled values as 128-bit two's complement pairs. */
    public static void decode128(Operand operand, long[] high, long[] low) {
        int rows = operand.rows();
        if (operand.isConstant()) {
            if (operand.constant() != null) {
                Decimal128 value = constant128(operand.constant(), operand.type());
                Arrays.fill(high, 0, rows, value.high());
                Arrays.fill(low, 0, rows, value.low());
            }
            return;
        }
        FieldVector vector = operand.vector();
        if (vector instanceof DecimalVector) {
            ArrowBuf data = vector.getDataBuffer();
            boolean nulls = vector.getNullCount() > 0;
            for (int i = 0; i < rows; i++) {
                if (nulls && vector.isNull(i)) {
                    continue;
                }
                low[i] = data.getLong((long) i * 16);
                high[i] = data.getLong((long) i * 16 + 8);
            }
            return;
        }
        long[] values = decodeLongs(operand);
        for (int i = 0; i < rows; i++) {
            low[i] = values[i];
            high[i] = values[i] >> 63;
        }
    }

    /** The operand's values as doubles (decimals divided by 10^scale). */
    public static double[] decodeDoubles(Operand operand) {
        int rows = operand.rows();
        double[] values = new double[rows];
        if (operand.isConstant()) {
            if (operand.constant() != null) {
                Arrays.fill(values, constantDouble(operand.constant()));
            }
            return values;
        }
        FieldVector vector = operand.vector();
        if (vector instanceof Float8Vector) {
            ArrowBuf data = vector.getDataBuffer();
            for (int i = 0; i < rows; i++) {
                values[i] = data.getDouble((long) i * 8);
            }
        } else if (vector instanceof DecimalVector) {
            ArrowBuf data = vector.getDataBuffer();
            double divisor = Math.pow(10, scale(operand.type()));
            Decimal128 value = new Decimal128();
            for (int i = 0; i < rows; i++) {
                values[i] = value.read(data, i).toDouble() / divisor;
            }
        } else {
            long[] longs = decodeLongs(operand);
            for (int i = 0; i < rows; i++) {
                values[i] = longs[i];
            }
        }
        if (vector.getNullCount() > 0) {
            for (int i = 0; i < rows; i++) {
                if (vector.isNull(i)) {
                    values[i] = 0;
                }
            }
        }
        return values;
    }

    /** The unscaled value of a numeric constant at its type's scale. */
    public static Decimal128 constant128(Object value, ArrowType type) {
        if (value instanceof Integer || value instanceof Long) {
            long v = ((Number) value).longValue();
            Decimal128 result = new Decimal128().set(v);
            return type instanceof ArrowType.Decimal d ? result.scaleUp(d.getScale()) : result;
        }
        if (value instanceof Boolean b) {
            return new Decimal128().set(b ? 1 : 0);
        }
        BigDecimal decimal = Vectors.toDecimal(value, scale(type));
        BigInteger unscaled = decimal.unscaledValue();
        return new Decimal128().set(unscaled);
    }

    public static double constantDouble(Object value) {
        if (value instanceof BigDecimal d) {
            return d.doubleValue();
        }
        if (value instanceof Boolean b) {
            return b ? 1 : 0;
        }
        return ((Number) value).doubleValue();
    }

    /** Rescales every value from {@code fromScale} up to {@code toScale} (exact; throws ArithmeticException on overflow). */
    public static void scaleUp(long[] values, int fromScale, int toScale) {
        if (toScale == fromScale) {
            return;
        }
        if (toScale - fromScale > 18) {
            for (long v : values) {
                if (v != 0) {
                    throw new ArithmeticException("decimal overflow");
                }
            }
            return;
        }
        long factor = DecimalMath.powerOfTen(toScale - fromScale);
        for (int i = 0; i < values.length; i++) {
            values[i] = Math.multiplyExact(values[i], factor);
        }
    }

    /** Rescales every value in either direction, rounding HALF_UP when scaling down. */
    public static void rescale(long[] values, int fromScale, int toScale) {
        if (toScale >= fromScale) {
            scaleUp(values, fromScale, toScale);
            return;
        }
        for (int i = 0; i < values.length; i++) {
            values[i] = DecimalMath.rescale(values[i], fromScale, toScale);
        }
    }
}
