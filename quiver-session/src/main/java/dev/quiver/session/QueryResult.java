package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.QueryWarning;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The complete result of one statement.
 *
 * @param columnNames the output column names, as the query spelled them
 * @param schema the Arrow schema of the rows (its field names equal {@code columnNames})
 * @param rows the rows as Java values ({@link dev.quiver.engine.types.QuiverTypes}); SQL NULL is
 *     {@code null}
 * @param plan the physical plan as text (for statements without a plan, e.g. {@code SET}, empty)
 * @param elapsed wall time from planning until the last row was read
 * @param warnings what the run tells its user besides its rows ({@link QueryHandle#warnings()}), e.g. rows {@code ignore_errors} skipped
 */
public record QueryResult(List<String> columnNames, Schema schema, List<List<Object>> rows, String plan, Duration elapsed,
        List<QueryWarning> warnings) {
    public QueryResult {
        columnNames = List.copyOf(requireNonNull(columnNames, "columnNames is null"));
        requireNonNull(schema, "schema is null");
        List<List<Object>> copy = new ArrayList<>(requireNonNull(rows, "rows is null").size());
        for (List<Object> row : rows) {
            copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
        }
        rows = Collections.unmodifiableList(copy);
        requireNonNull(plan, "plan is null");
        requireNonNull(elapsed, "elapsed is null");
        warnings = List.copyOf(requireNonNull(warnings, "warnings is null"));
    }

    public int rowCount() {
        return rows.size();
    }
}
