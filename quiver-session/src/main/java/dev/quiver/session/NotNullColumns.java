package dev.quiver.session;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** The NOT NULL columns of a table the session writes: a NULL for one fails the statement, as in DuckDB and PostgreSQL. */
final class NotNullColumns {
    private NotNullColumns() {}

    /** Fails if {@code batch}, about to go into {@code table}, holds a NULL in a column {@code schema} declares NOT NULL. */
    static void check(String table, Schema schema, VectorSchemaRoot batch) {
        List<Field> fields = schema.getFields();
        for (int c = 0; c < fields.size(); c++) {
            if (!fields.get(c).isNullable() && batch.getVector(c).getNullCount() > 0) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "NOT NULL constraint failed: " + table + "." + fields.get(c).getName()
                        + " received a NULL");
            }
        }
    }
}
