package dev.quiver.engine.source.csv;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/** The column types CSV tables read and write, and how each maps to Arrow. */
enum CsvColumnKind {
    BOOLEAN,
    INT,
    BIGINT,
    DOUBLE,
    DECIMAL,
    DATE,
    TIMESTAMP,
    VARCHAR;

    static CsvColumnKind of(Field field, String file) {
        ArrowType type = field.getType();
        if (type instanceof ArrowType.Bool) {
            return BOOLEAN;
        }
        if (type instanceof ArrowType.Int integer && integer.getIsSigned() && integer.getBitWidth() == 32) {
            return INT;
        }
        if (type instanceof ArrowType.Int integer && integer.getIsSigned() && integer.getBitWidth() == 64) {
            return BIGINT;
        }
        if (type.equals(QuiverTypes.FLOAT64)) {
            return DOUBLE;
        }
        if (type instanceof ArrowType.Decimal decimal && decimal.getBitWidth() == 128) {
            return DECIMAL;
        }
        if (type.equals(QuiverTypes.DATE32)) {
            return DATE;
        }
        if (type instanceof ArrowType.Timestamp timestamp && timestamp.getTimezone() == null
                && timestamp.getUnit() == TimeUnit.MICROSECOND) {
            return TIMESTAMP;
        }
        if (type instanceof ArrowType.Utf8) {
            return VARCHAR;
        }
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, "CSV " + file + ": column '" + field.getName() + "' has type "
                + type + ", which CSV tables do not support (BOOLEAN, INTEGER, BIGINT, DOUBLE, DECIMAL, DATE, TIMESTAMP, VARCHAR)");
    }
}
