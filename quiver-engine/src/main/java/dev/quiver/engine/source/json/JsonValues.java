package dev.quiver.engine.source.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.source.files.TextValues;
import dev.quiver.engine.types.QuiverTypes;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** Writes the JSON value a parser stands at into a vector of its column's type, or says why it cannot. */
final class JsonValues {
    private JsonValues() {}

    /**
     * Writes the current value at {@code index}.
     *
     * @return null when written, else what is wrong with the value (for the line's error)
     */
    static String write(JsonLineReader reader, FieldVector vector, int index) throws IOException {
        JsonParser parser = reader.parser();
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NULL) {
            VectorValues.setNull(vector, index);
            return null;
        }
        ArrowType type = vector.getField().getType();
        Object value;
        if (type instanceof ArrowType.Utf8) {
            value = reader.valueText();
        } else if (type instanceof ArrowType.Int) {
            if (token != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                return skip(parser, "is not an integer that BIGINT holds");
            }
            value = parser.getLongValue();
        } else if (type instanceof ArrowType.FloatingPoint) {
            if (!token.isNumeric()) {
                return skip(parser, "is not a number");
            }
            value = parser.getDoubleValue();
        } else if (type instanceof ArrowType.Decimal) {
            if (!token.isNumeric()) {
                return skip(parser, "is not a number");
            }
            value = parser.getDecimalValue();
        } else if (type instanceof ArrowType.Bool) {
            if (token != JsonToken.VALUE_TRUE && token != JsonToken.VALUE_FALSE) {
                return skip(parser, "is not true or false");
            }
            value = token == JsonToken.VALUE_TRUE;
        } else if (type instanceof ArrowType.Date) {
            if (token != JsonToken.VALUE_STRING || !TextValues.isDate(parser.getText())) {
                return skip(parser, "is not a date (YYYY-MM-DD)");
            }
            value = (int) LocalDate.parse(parser.getText()).toEpochDay();
        } else if (type instanceof ArrowType.Timestamp) {
            if (token != JsonToken.VALUE_STRING || !TextValues.isTimestamp(parser.getText())) {
                return skip(parser, "is not a timestamp (YYYY-MM-DD HH:MM:SS[.ffffff])");
            }
            LocalDateTime time = LocalDateTime.parse(parser.getText().replace(' ', 'T'));
            value = time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + time.getNano() / 1000;
        } else {
            return skip(parser, "cannot be read as " + QuiverTypes.sqlName(type));
        }
        if (value instanceof BigDecimal decimal && decimal.precision() - decimal.scale() > ((ArrowType.Decimal) type).getPrecision()
                - ((ArrowType.Decimal) type).getScale()) {
            return "does not fit " + QuiverTypes.sqlName(type);
        }
        VectorValues.set(vector, index, value);
        return null;
    }

    private static String skip(JsonParser parser, String problem) throws IOException {
        parser.skipChildren();
        return problem;
    }
}
