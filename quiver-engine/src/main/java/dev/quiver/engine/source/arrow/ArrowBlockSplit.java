package dev.quiver.engine.source.arrow;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One record batch of an Arrow IPC file: the unit a scan split is made of.
 *
 * @param file the Arrow IPC file
 * @param index the batch's position in the file's footer
 * @param rowCount exact number of rows, from the batch's metadata
 * @param bodyBytes bytes of the batch's body (its buffers), about its size in memory
 * @param nullCounts NULLs of each table column in this batch, from the batch's metadata
 */
public record ArrowBlockSplit(Path file, int index, long rowCount, long bodyBytes, long[] nullCounts) {
    public ArrowBlockSplit {
        requireNonNull(file, "file is null");
        requireNonNull(nullCounts, "nullCounts is null");
    }

    /** Exact statistics of the given table columns over {@code splits}: their NULL counts. */
    static List<ColumnStatistics> columns(List<ArrowBlockSplit> splits, List<Integer> projection) {
        List<ColumnStatistics> columns = new ArrayList<>(projection.size());
        for (int column : projection) {
            long nulls = 0;
            for (ArrowBlockSplit split : splits) {
                nulls += split.nullCounts()[column];
            }
            columns.add(new ColumnStatistics(Estimate.exact(nulls), Estimate.absent(), Optional.empty(), Optional.empty(), false));
        }
        return columns;
    }

    @Override
    public String toString() {
        return file.getFileName() + "#" + index;
    }
}
