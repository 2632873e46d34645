package dev.quiver.engine.source.parquet;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.metrics.PartitionMetrics;
import dev.quiver.engine.source.files.ScanCounters;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.types.QuiverTypes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Reads the row groups of one scan partition in order, {@code batchSize} rows at a time, decoding
 * only the projected columns. A file stays open while consecutive row groups come from it. A
 * projected Hive partition column is the row group's value repeated; a column the file lacks
 * ({@code union_by_name}) is NULL; a file column of a narrower type than the table's is cast.
 *
 * <p>States: no row group (open the next one, or end) → in a row group (decode a batch; when its
 * rows are used up, back to no row group) → closed.
 */
final class ParquetPartitionStream implements BatchStream {
    private static final GroupConverter NO_CONVERTER = new GroupConverter() {
        private final PrimitiveConverter primitive = new PrimitiveConverter() {};

        @Override
        public Converter getConverter(int fieldIndex) {
            return primitive;
        }

        @Override
        public void start() {}

        @Override
        public void end() {}
    };

    private final Schema schema;
    private final int[] tableColumns;
    private final int fileColumns;
    private final List<ParquetRowGroup> rowGroups;
    private final BufferAllocator allocator;
    private final int batchSize;
    private final PartitionMetrics metrics;
    private final ScanCounters counters;
    private final Storages storages;
    private int nextRowGroup;
    private ParquetFileReader file;
    private Location filePath;
    /** Per output column: the file's column, or null for a partition column or one the file lacks. */
    private ParquetColumn[] columns;
    private ColumnReader[] readers;
    private PageColumnReader[] pageReaders;
    private NestedColumnReader[] nestedReaders;
    private ParquetRowGroup current;
    private long remaining;
    private boolean closed;

    /**
     * @param tableSchema the table's columns: file columns, then {@code partitionColumns} partition columns
     * @param projection the table columns to produce, in order
     */
    ParquetPartitionStream(Schema tableSchema, List<Integer> projection, int partitionColumns, List<ParquetRowGroup> rowGroups,
            Storages storages, BufferAllocator allocator, int batchSize, PartitionMetrics metrics, ScanCounters counters) {
        this.storages = requireNonNull(storages, "storages is null");
        requireNonNull(tableSchema, "tableSchema is null");
        this.tableColumns = projection.stream().mapToInt(Integer::intValue).toArray();
        this.schema = new Schema(projection.stream().map(tableSchema.getFields()::get).toList());
        this.fileColumns = tableSchema.getFields().size() - partitionColumns;
        this.rowGroups = List.copyOf(requireNonNull(rowGroups, "rowGroups is null"));
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.counters = requireNonNull(counters, "counters is null");
        this.batchSize = batchSize;
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public VectorSchemaRoot next() {
        if (closed) {
            return null;
        }
        long start = System.nanoTime();
        try {
            while (remaining == 0) {
                if (nextRowGroup == rowGroups.size()) {
                    close();
                    return null;
                }
                openRowGroup(rowGroups.get(nextRowGroup++));
            }
            int count = (int) Math.min(batchSize, remaining);
            VectorSchemaRoot batch = decode(count);
            remaining -= count;
            return batch;
        } finally {
            metrics.addElapsedCompute(System.nanoTime() - start);
        }
    }

    private void openRowGroup(ParquetRowGroup rowGroup) {
        current = rowGroup;
        try {
            if (!rowGroup.file().equals(filePath)) {
                openFile(rowGroup.file(), rowGroup.fileSize());
            }
            remaining = rowGroup.rowCount();
            readers = new ColumnReader[columns.length];
            pageReaders = new PageColumnReader[columns.length];
            nestedReaders = new NestedColumnReader[columns.length];
            MessageType requested = requestedSchema();
            if (requested.getFieldCount() > 0) {
                PageReadStore pages = file.readRowGroup(rowGroup.index());
                BlockMetaData block = file.getFooter().getBlocks().get(rowGroup.index());
                counters.addBytesRead(compressedBytes(block));
                ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, NO_CONVERTER, requested, file.getFooter().getFileMetaData().getCreatedBy());
                for (int c = 0; c < columns.length; c++) {
                    ParquetColumn column = columns[c];
                    if (column == null) {
                        continue;
                    }
                    if (column.isNested()) {
                        nestedReaders[c] = new NestedColumnReader(column, pages, file.getFooter().getFileMetaData().getSchema(),
                                file.getFooter().getFileMetaData().getCreatedBy());
                    } else if (PageColumnReader.supports(column, encodings(block, column))) {
                        pageReaders[c] = new PageColumnReader(pages.getPageReader(column.descriptor()), column);
                    } else {
                        readers[c] = store.getColumnReader(column.descriptor());
                    }
                }
            }
            counters.addRowGroupRead();
        } catch (IOException | RuntimeException e) {
            throw failure(e);
        }
    }

    /** Compressed bytes of the chunks this scan reads from a row group. */
    private long compressedBytes(BlockMetaData block) {
        long bytes = 0;
        for (ColumnChunkMetaData chunk : block.getColumns()) {
            for (ParquetColumn column : columns) {
                if (column != null && column.contains(chunk.getPath())) {
                    bytes += chunk.getTotalSize();
                    break;
                }
            }
        }
        return bytes;
    }

    private void openFile(Location path, long size) throws IOException {
        closeFile();
        file = ParquetFiles.openReader(storages.of(path), path, size);
        filePath = path;
        counters.addFileOpened();
        List<ParquetColumn> fileColumnList = ParquetSchemas.columns(file.getFooter().getFileMetaData().getSchema(), path.toString());
        Map<String, ParquetColumn> byName = new HashMap<>();
        for (ParquetColumn column : fileColumnList) {
            byName.put(column.name().toLowerCase(Locale.ROOT), column);
        }
        columns = new ParquetColumn[tableColumns.length];
        for (int c = 0; c < columns.length; c++) {
            if (tableColumns[c] >= fileColumns) {
                continue; // a partition column
            }
            Field field = schema.getFields().get(c);
            ParquetColumn column = byName.get(field.getName().toLowerCase(Locale.ROOT));
            if (column != null && !column.field().getType().equals(field.getType()) && !ParquetCasts.canCast(column.field(), field)) {
                throw new QuiverException(ErrorCode.SOURCE_ERROR, "Parquet file " + path + " changed since the table was opened: column '"
                        + field.getName() + "' is now of type " + QuiverTypes.sqlName(column.field().getType()));
            }
            columns[c] = column;
        }
        file.setRequestedSchema(requestedSchema());
    }

    private static Set<Encoding> encodings(BlockMetaData block, ParquetColumn column) {
        ColumnChunkMetaData chunk = ParquetFooter.chunk(block, column);
        return chunk == null ? Set.of(Encoding.DELTA_BINARY_PACKED) : chunk.getEncodings(); // unknown: let parquet-java decode it
    }

    private MessageType requestedSchema() {
        MessageType fileSchema = file.getFooter().getFileMetaData().getSchema();
        List<Type> fields = new ArrayList<>();
        for (ParquetColumn column : columns) {
            if (column != null && fields.stream().noneMatch(f -> f.getName().equals(column.type().getName()))) {
                fields.add(fileSchema.getType(column.type().getName()));
            }
        }
        return new MessageType(fileSchema.getName(), fields);
    }

    private VectorSchemaRoot decode(int count) {
        List<FieldVector> vectors = new ArrayList<>(columns.length);
        try {
            for (int c = 0; c < columns.length; c++) {
                vectors.add(column(c, count));
            }
            return new VectorSchemaRoot(schema.getFields(), vectors, count);
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw failure(e);
        }
    }

    /** Output column {@code c} for the next {@code count} rows. */
    private FieldVector column(int c, int count) {
        Field field = schema.getFields().get(c);
        if (tableColumns[c] >= fileColumns) {
            return ParquetCasts.constant(field, current.partitionValues().get(tableColumns[c] - fileColumns), count, allocator);
        }
        ParquetColumn column = columns[c];
        if (column == null) {
            return ParquetCasts.constant(field, null, count, allocator);
        }
        FieldVector vector = column.field().createVector(allocator);
        try {
            if (nestedReaders[c] != null) {
                nestedReaders[c].read(vector, count);
            } else if (pageReaders[c] != null) {
                pageReaders[c].read(vector, count);
            } else {
                ColumnDecoder.decode(column.kind(), readers[c], column.descriptor().getMaxDefinitionLevel(), vector, count);
            }
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
        return column.field().getType().equals(field.getType()) ? vector : ParquetCasts.cast(vector, field, count, allocator);
    }

    private QuiverException failure(Exception e) {
        if (e instanceof QuiverException quiver) {
            return quiver;
        }
        return new QuiverException(ErrorCode.SOURCE_ERROR, "cannot read row group " + current.index() + " of Parquet file "
                + current.file() + ": " + e.getMessage(), e);
    }

    private void closeFile() {
        readers = null;
        pageReaders = null;
        nestedReaders = null;
        if (file != null) {
            try {
                file.close();
            } catch (IOException ignored) {
                // a read-only file: nothing is lost if its close fails
            }
            file = null;
            filePath = null;
        }
    }

    @Override
    public void close() {
        closed = true;
        remaining = 0;
        closeFile();
    }
}
