package dev.quiver.engine.source.json;

import com.fasterxml.jackson.core.JsonToken;
import dev.quiver.engine.source.files.TextValues;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The columns of JSON Lines from a sample of objects: every key seen, in the order first seen,
 * typed by all its non-NULL values: integers that fit 64 bits BIGINT, with
 * any fraction DOUBLE, {@code true}/{@code false} BOOLEAN, strings that are all dates DATE (all
 * timestamps TIMESTAMP, as DuckDB detects them), other strings VARCHAR; objects and arrays, and
 * keys whose values mix those kinds, VARCHAR (objects and arrays as their JSON text). A key NULL in
 * the whole sample is VARCHAR. Every column is nullable.
 */
final class JsonSchemaInference {
    private final Map<String, Column> columns = new LinkedHashMap<>();

    /** What the sampled values of one key were. */
    private static final class Column {
        final String name;
        boolean integers;
        boolean numbers;
        boolean booleans;
        boolean texts;
        boolean nested;
        boolean dates = true;
        boolean timestamps = true;
        boolean bigIntegers;

        Column(String name) {
            this.name = name;
        }
    }

    /** Counts one value of {@code key}: its token, and its text for a string. */
    void add(String key, JsonToken token, String text, boolean fitsLong) {
        // keys are case-sensitive, as DuckDB reads them
        Column column = columns.computeIfAbsent(key, Column::new);
        switch (token) {
            case VALUE_NUMBER_INT -> {
                column.integers = true;
                column.bigIntegers |= !fitsLong;
            }
            case VALUE_NUMBER_FLOAT -> column.numbers = true;
            case VALUE_TRUE, VALUE_FALSE -> column.booleans = true;
            case VALUE_STRING -> {
                column.texts = true;
                column.dates &= TextValues.isDate(text);
                column.timestamps &= TextValues.isTimestamp(text);
            }
            case START_OBJECT, START_ARRAY -> column.nested = true;
            default -> { }
        }
    }

    List<Field> fields() {
        List<Field> fields = new ArrayList<>(columns.size());
        for (Column column : columns.values()) {
            fields.add(QuiverTypes.field(column.name, type(column), true));
        }
        return fields;
    }

    private static ArrowType type(Column column) {
        int kinds = (column.integers || column.numbers ? 1 : 0) + (column.booleans ? 1 : 0) + (column.texts ? 1 : 0) + (column.nested ? 1 : 0);
        if (kinds != 1) {
            return QuiverTypes.UTF8;
        }
        if (column.integers || column.numbers) {
            return column.numbers || column.bigIntegers ? QuiverTypes.FLOAT64 : QuiverTypes.INT64;
        }
        if (column.booleans) {
            return QuiverTypes.BOOLEAN;
        }
        if (column.texts && column.dates) {
            return QuiverTypes.DATE32;
        }
        if (column.texts && column.timestamps) {
            return QuiverTypes.TIMESTAMP;
        }
        return QuiverTypes.UTF8;
    }
}
