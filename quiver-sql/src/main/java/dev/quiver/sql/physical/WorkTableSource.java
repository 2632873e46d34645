package dev.quiver.sql.physical;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.operator.recursive.WorkTableScanExec;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The transient table of a {@code WITH RECURSIVE} query, as its recursive part scans it: a
 * {@link WorkTableScanExec} (one partition, whatever the request's partitions), projected to the
 * requested columns. Filters are not pushed into it; the scan planner applies them above.
 */
record WorkTableSource(List<String> qualifiedName, Schema schema) implements TableSource {
    WorkTableSource {
        qualifiedName = List.copyOf(requireNonNull(qualifiedName, "qualifiedName is null"));
        requireNonNull(schema, "schema is null");
    }

    @Override
    public String name() {
        return qualifiedName.get(qualifiedName.size() - 1);
    }

    @Override
    public Statistics statistics() {
        return Statistics.unknown(schema);
    }

    @Override
    public ExecutionPlan scan(ScanRequest request) {
        ExecutionPlan scan = new WorkTableScanExec(name(), schema);
        if (request.projection().isEmpty()) {
            return scan;
        }
        List<PhysicalExpr> columns = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int index : request.projection().get()) {
            Field field = schema.getFields().get(index);
            columns.add(new ColumnExpr(index, field.getName(), field.getType(), field.isNullable()));
            names.add(field.getName());
        }
        return new ProjectionExec(columns, names, scan);
    }
}
