package dev.quiver.engine.source.parquet;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.storage.FileEntry;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storage;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * What a table needs from one file's footer: its columns as Quiver reads them and its row groups
 * with their statistics and sizes, mapped onto the table's columns by name (a table column the
 * file lacks, with {@code union_by_name}, is all NULL in it; a partition column is one value).
 *
 * @param file the file
 * @param fileSize its size in bytes
 * @param columns the file's top-level columns
 * @param blocks the footer's row groups
 * @param dictionaries per row group and column, the dictionary sizes ({@link ParquetDictionaries})
 */
record ParquetFooter(Location file, long fileSize, List<ParquetColumn> columns, List<BlockMetaData> blocks, List<Estimate[]> dictionaries) {
    ParquetFooter {
        requireNonNull(file, "file is null");
        columns = List.copyOf(columns);
        blocks = List.copyOf(blocks);
        dictionaries = List.copyOf(dictionaries);
    }

    /** Reads the footer of {@code entry} (and the headers of its dictionary pages). */
    static ParquetFooter read(Storage storage, FileEntry entry) {
        Location file = entry.location();
        ParquetMetadata footer;
        try (ParquetFileReader reader = ParquetFiles.openReader(storage, file, entry.size())) {
            footer = reader.getFooter();
        } catch (IOException | RuntimeException e) {
            String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot read Parquet file " + file + ": " + reason, e);
        }
        List<ParquetColumn> columns = ParquetSchemas.columns(footer.getFileMetaData().getSchema(), file.toString());
        List<BlockMetaData> blocks = footer.getBlocks();
        checkCodecs(file, blocks);
        return new ParquetFooter(file, entry.size(), columns, blocks, ParquetDictionaries.sizes(storage, entry, blocks, columns));
    }

    /** A codec Quiver cannot decompress fails the opening, naming it, rather than the scan with "could not decompress page". */
    private static void checkCodecs(Location file, List<BlockMetaData> blocks) {
        for (BlockMetaData block : blocks) {
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                if (!ParquetCodecs.supports(chunk.getCodec())) {
                    throw new QuiverException(ErrorCode.NOT_SUPPORTED, "Parquet file " + file + ": column " + chunk.getPath().toDotString()
                            + " is compressed with " + chunk.getCodec() + ", which Quiver does not read (it reads UNCOMPRESSED, SNAPPY, GZIP, ZSTD, "
                            + "LZ4_RAW and LZ4)");
                }
            }
        }
    }

    /** The file's columns as a schema. */
    Schema schema() {
        return new Schema(columns.stream().map(ParquetColumn::field).toList());
    }

    long rowCount() {
        return blocks.stream().mapToLong(BlockMetaData::getRowCount).sum();
    }

    /**
     * The file's row groups as splits of a table whose first {@code fileColumns} columns of
     * {@code tableSchema} come from files (by name) and the rest are partition columns with
     * {@code partitionValues}.
     */
    List<ParquetRowGroup> rowGroups(Schema tableSchema, int fileColumns, List<Object> partitionValues) {
        Map<String, Integer> byName = new HashMap<>();
        for (int c = 0; c < columns.size(); c++) {
            byName.put(columns.get(c).name().toLowerCase(Locale.ROOT), c);
        }
        List<Field> fields = tableSchema.getFields();
        List<ParquetRowGroup> rowGroups = new ArrayList<>(blocks.size());
        for (int index = 0; index < blocks.size(); index++) {
            BlockMetaData block = blocks.get(index);
            long rows = block.getRowCount();
            List<ColumnStatistics> stats = new ArrayList<>(fields.size());
            long[] bytes = new long[fields.size()];
            for (int c = 0; c < fields.size(); c++) {
                if (c >= fileColumns) {
                    stats.add(constant(partitionValues.get(c - fileColumns), rows));
                    continue;
                }
                Integer own = byName.get(fields.get(c).getName().toLowerCase(Locale.ROOT));
                if (own == null) {
                    stats.add(constant(null, rows));
                    continue;
                }
                ParquetColumn column = columns.get(own);
                ColumnChunkMetaData chunk = column.isNested() ? null : chunk(block, column);
                stats.add(chunk == null ? ColumnStatistics.unknown()
                        : ParquetStatistics.of(chunk.getStatistics(), column, rows, dictionaries.get(index)[own]));
                bytes[c] = chunkBytes(block, column);
            }
            rowGroups.add(new ParquetRowGroup(file, fileSize, index, rows, stats, bytes, partitionValues));
        }
        return rowGroups;
    }

    /** The statistics of a column that holds one value (or only NULLs) in {@code rows} rows. */
    static ColumnStatistics constant(Object value, long rows) {
        if (value == null) {
            return new ColumnStatistics(Estimate.exact(rows), Estimate.exact(0), Optional.empty(), Optional.empty(), true);
        }
        return new ColumnStatistics(Estimate.exact(0), Estimate.exact(rows == 0 ? 0 : 1), Optional.of(value), Optional.of(value), true);
    }

    /** The chunk of a flat column, or null. */
    static ColumnChunkMetaData chunk(BlockMetaData block, ParquetColumn column) {
        ColumnPath path = ColumnPath.get(column.descriptor().getPath());
        for (ColumnChunkMetaData chunk : block.getColumns()) {
            if (chunk.getPath().equals(path)) {
                return chunk;
            }
        }
        return null;
    }

    /** Uncompressed bytes of every leaf chunk of a column. */
    private static long chunkBytes(BlockMetaData block, ParquetColumn column) {
        long bytes = 0;
        for (ColumnChunkMetaData chunk : block.getColumns()) {
            if (column.contains(chunk.getPath())) {
                bytes += chunk.getTotalUncompressedSize();
            }
        }
        return bytes;
    }
}
