package dev.quiver.engine.source.parquet;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.source.storage.Location;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One row group of one file: the unit a scan split is made of (a split never cuts a row group).
 *
 * @param file the Parquet file
 * @param fileSize the file's size in bytes (a reader of an object store needs it to find the footer)
 * @param index the row group's position in the file's footer
 * @param rowCount exact number of rows
 * @param columns statistics of each table column in this row group, from the footer (a partition
 *     column's single value; NULLs only for a column the file lacks)
 * @param columnBytes uncompressed bytes of each table column's chunks (0 for a partition column)
 * @param partitionValues the file's values of the table's Hive partition columns, in order (null
 *     for NULL); empty for an unpartitioned table
 */
public record ParquetRowGroup(Location file, long fileSize, int index, long rowCount, List<ColumnStatistics> columns, long[] columnBytes,
        List<Object> partitionValues) {
    public ParquetRowGroup {
        requireNonNull(file, "file is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(columnBytes, "columnBytes is null");
        // values may be NULL, which List.copyOf refuses
        partitionValues = Collections.unmodifiableList(new ArrayList<>(requireNonNull(partitionValues, "partitionValues is null")));
    }


    /** Uncompressed bytes of the given table columns (all columns when empty). */
    public long bytes(List<Integer> projection) {
        long sum = 0;
        for (int column : projection) {
            sum += columnBytes[column];
        }
        return sum;
    }

    @Override
    public String toString() {
        return file.fileName() + "#" + index;
    }
}
