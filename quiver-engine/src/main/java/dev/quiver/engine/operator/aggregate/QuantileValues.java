package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * How an approximate quantile, computed as a double, becomes a value of the type of the values it
 * summarises (DuckDB's result type of {@code APPROX_QUANTILE}): integers, dates (days) and
 * timestamps (microseconds) are rounded half away from zero, decimals HALF_UP to their scale,
 * doubles stay as they are. A double holds integers exactly up to 2^53, so a BIGINT quantile
 * beyond that is as close as a double gets.
 */
enum QuantileValues {
    DOUBLE, INTEGER, BIGINT, DECIMAL, DATE, TIMESTAMP;

    /** The conversion from {@code values} to {@code result}; NOT_SUPPORTED unless they are one numeric, date or timestamp type. */
    static QuantileValues of(ArrowType values, ArrowType result) {
        if (!values.equals(result)) {
            throw unsupported(values, result);
        }
        return switch (ColumnKind.of(values)) {
            case DOUBLE -> DOUBLE;
            case INT32 -> INTEGER;
            case INT64 -> BIGINT;
            case DECIMAL -> DECIMAL;
            case DATE -> DATE;
            case TIMESTAMP -> TIMESTAMP;
            case BOOLEAN, STRING -> throw unsupported(values, result);
        };
    }

    /** Writes {@code quantile}, converted, to row {@code index} of {@code out} (a vector of the result type). */
    void write(FieldVector out, int index, double quantile) {
        switch (this) {
            case DOUBLE -> ((Float8Vector) out).set(index, quantile);
            case INTEGER -> ((IntVector) out).set(index, (int) roundHalfAway(quantile));
            case BIGINT -> ((BigIntVector) out).set(index, roundHalfAway(quantile));
            case DATE -> ((DateDayVector) out).set(index, (int) roundHalfAway(quantile));
            case TIMESTAMP -> ((TimeStampVector) out).set(index, roundHalfAway(quantile));
            case DECIMAL -> {
                DecimalVector decimal = (DecimalVector) out;
                decimal.set(index, BigDecimal.valueOf(quantile).setScale(decimal.getScale(), RoundingMode.HALF_UP));
            }
        }
    }

    /** Rounded half away from zero; a double beyond the long range saturates (it only comes from values near the limits). */
    private static long roundHalfAway(double value) {
        return (long) (value < 0 ? Math.ceil(value - 0.5) : Math.floor(value + 0.5));
    }

    private static QuiverException unsupported(ArrowType values, ArrowType result) {
        return new QuiverException(ErrorCode.NOT_SUPPORTED, "APPROX_QUANTILE of " + QuiverTypes.sqlName(values) + " returning "
                + QuiverTypes.sqlName(result) + " is not supported: it takes numbers, dates and timestamps");
    }
}
