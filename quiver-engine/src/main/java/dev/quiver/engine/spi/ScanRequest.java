package dev.quiver.engine.spi;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.PlanChecks;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.List;
import java.util.Optional;

/**
 * What a query needs from a table.
 *
 * @param projection the table's column indexes to produce, in order; empty for all columns
 * @param filters predicates over the table's full schema that the source may use to skip data;
 *     the engine still applies them, so a source may ignore them
 * @param targetPartitions how many output partitions the engine would like
 */
public record ScanRequest(Optional<List<Integer>> projection, List<PhysicalExpr> filters, int targetPartitions) {
    public ScanRequest {
        requireNonNull(projection, "projection is null");
        projection = projection.map(List::copyOf);
        filters = List.copyOf(requireNonNull(filters, "filters is null"));
        PlanChecks.checkArgument(targetPartitions >= 1, "ScanRequest", "targetPartitions must be positive: %s", targetPartitions);
    }

    public static ScanRequest all(int targetPartitions) {
        return new ScanRequest(Optional.empty(), List.of(), targetPartitions);
    }
}
