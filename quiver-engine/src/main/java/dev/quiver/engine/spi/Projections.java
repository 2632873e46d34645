package dev.quiver.engine.spi;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** The output schema of a scan that produces some of a table's columns. */
public final class Projections {
    private Projections() {}

    /**
     * The fields of {@code tableSchema} at {@code projection}, in that order; an index outside the
     * table is a PLAN_ERROR naming the table, e.g. "column 7 is out of range for CSV table t with 3 columns".
     */
    public static Schema project(String format, String tableName, Schema tableSchema, List<Integer> projection) {
        List<Field> fields = tableSchema.getFields();
        for (int index : projection) {
            if (index < 0 || index >= fields.size()) {
                throw new QuiverException(ErrorCode.PLAN_ERROR,
                        "column " + index + " is out of range for " + format + " table " + tableName + " with " + fields.size() + " columns");
            }
        }
        return new Schema(projection.stream().map(fields::get).toList());
    }
}
