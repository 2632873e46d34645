package dev.quiver.cli.format;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A query result as the formatters see it: column names, their Arrow types (which say how a value
 * is rendered, e.g. an {@code Integer} in a DATE column is a day count) and the rows as Java values
 * (see {@code QuiverTypes}).
 */
public record ResultTable(List<String> columnNames, List<ArrowType> columnTypes, List<List<Object>> rows) {
    public ResultTable {
        requireNonNull(columnNames, "columnNames is null");
        requireNonNull(columnTypes, "columnTypes is null");
        requireNonNull(rows, "rows is null");
        if (columnNames.size() != columnTypes.size()) {
            throw new IllegalArgumentException(
                    "column names " + columnNames + " do not match " + columnTypes.size() + " column types");
        }
        columnNames = List.copyOf(columnNames);
        columnTypes = List.copyOf(columnTypes);
        // rows may hold nulls, which List.copyOf rejects
        rows = Collections.unmodifiableList(new ArrayList<>(rows));
    }

    /** A result whose column names are the schema's field names. */
    public static ResultTable of(Schema schema, List<List<Object>> rows) {
        return of(schema.getFields().stream().map(Field::getName).toList(), schema, rows);
    }

    /** A result with display names that may differ from the schema's field names. */
    public static ResultTable of(List<String> columnNames, Schema schema, List<List<Object>> rows) {
        return new ResultTable(columnNames, schema.getFields().stream().map(Field::getType).toList(), rows);
    }

    public int columnCount() {
        return columnNames.size();
    }
}
