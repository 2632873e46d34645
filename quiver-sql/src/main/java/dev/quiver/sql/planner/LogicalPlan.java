package dev.quiver.sql.planner;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.calcite.rel.RelNode;

/**
 * A validated, decorrelated and optimized Calcite logical plan of one query.
 *
 * @param root the plan; its row type's field types (and nullability) are the result's, but its
 *     field names may not be: take names from {@code columnNames}
 * @param columnNames the result's column names as the query gives them (an unaliased expression
 *     is named as DuckDB names it, see {@code ColumnNames})
 */
public record LogicalPlan(RelNode root, List<String> columnNames) {
    public LogicalPlan {
        requireNonNull(root, "root is null");
        columnNames = List.copyOf(requireNonNull(columnNames, "columnNames is null"));
        if (columnNames.size() != root.getRowType().getFieldCount()) {
            throw new IllegalArgumentException("plan has " + root.getRowType().getFieldCount() + " columns but " + columnNames.size() + " names");
        }
    }
}
