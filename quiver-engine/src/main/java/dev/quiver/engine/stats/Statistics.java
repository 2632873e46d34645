package dev.quiver.engine.stats;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/** Statistics of a plan's output or of one of its partitions: rows, bytes, and per-column statistics. */
public record Statistics(Estimate rowCount, Estimate totalBytes, List<ColumnStatistics> columns) {
    public Statistics {
        requireNonNull(rowCount, "rowCount is null");
        requireNonNull(totalBytes, "totalBytes is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
    }

    public static Statistics unknown(Schema schema) {
        return new Statistics(Estimate.absent(), Estimate.absent(),
                Collections.nCopies(schema.getFields().size(), ColumnStatistics.unknown()));
    }

    public Statistics toInexact() {
        return new Statistics(rowCount.toInexact(), totalBytes.toInexact(),
                columns.stream().map(ColumnStatistics::toInexact).toList());
    }
}
