package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The physical layouts group keys and accumulators work on. Kinds that fit a {@code long}
 * (BOOLEAN, INT32, INT64, DATE, TIMESTAMP) share one code path that widens values to {@code long}.
 */
enum ColumnKind {
    BOOLEAN,
    INT32,
    INT64,
    DATE,
    TIMESTAMP,
    DOUBLE,
    DECIMAL,
    STRING;

    /** Whether values of this kind are held as {@code long}s. */
    boolean isLong() {
        return this == BOOLEAN || this == INT32 || this == INT64 || this == DATE || this == TIMESTAMP;
    }

    static ColumnKind of(ArrowType type) {
        if (type instanceof ArrowType.Bool) {
            return BOOLEAN;
        }
        if (type instanceof ArrowType.Int i && i.getIsSigned() && (i.getBitWidth() == 32 || i.getBitWidth() == 64)) {
            return i.getBitWidth() == 32 ? INT32 : INT64;
        }
        if (type instanceof ArrowType.Date d && d.getUnit() == DateUnit.DAY) {
            return DATE;
        }
        if (type instanceof ArrowType.Timestamp) {
            return TIMESTAMP;
        }
        if (type instanceof ArrowType.FloatingPoint f && f.getPrecision() == FloatingPointPrecision.DOUBLE) {
            return DOUBLE;
        }
        if (type instanceof ArrowType.Decimal d && d.getBitWidth() == 128) {
            return DECIMAL;
        }
        if (type instanceof ArrowType.Utf8) {
            return STRING;
        }
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, "aggregation over type " + QuiverTypes.sqlName(type) + " is not supported");
    }
}
