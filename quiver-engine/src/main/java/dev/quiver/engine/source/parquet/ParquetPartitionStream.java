package dev.quiver.engine.source.parquet;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
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
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Reads the row groups of one scan partition in order, {@code batchSize} rows at a time, decoding
 * only the projected columns. A file stays open while consecutive row groups come from it.
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
    private final List<ParquetRowGroup> rowGroups;
    private final BufferAllocator allocator;
    private final int batchSize;
    private final PartitionMetrics metrics;
    private final AtomicLong rowGroupsRead;
    private int nextRowGroup;
    private ParquetFileReader file;
    private Path filePath;
    private ParquetColumn[] columns;
    private ColumnReader[] readers;
    private PageColumnReader[] pageReaders;
    private ParquetRowGroup current;
    private long remaining;
    private boolean closed;

    ParquetPartitionStream(Schema schema, List<ParquetRowGroup> rowGroups, BufferAllocator allocator, int batchSize,
            PartitionMetrics metrics, AtomicLong rowGroupsRead) {
        this.schema = requireNonNull(schema, "schema is null");
        this.rowGroups = List.copyOf(requireNonNull(rowGroups, "rowGroups is null"));
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.rowGroupsRead = requireNonNull(rowGroupsRead, "rowGroupsRead is null");
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
                openFile(rowGroup.file());
            }
            remaining = rowGroup.rowCount();
            if (columns.length > 0) {
                PageReadStore pages = file.readRowGroup(rowGroup.index());
                MessageType requested = requestedSchema();
                ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, NO_CONVERTER, requested, file.getFooter().getFileMetaData().getCreatedBy());
                BlockMetaData block = file.getFooter().getBlocks().get(rowGroup.index());
                readers = new ColumnReader[columns.length];
                pageReaders = new PageColumnReader[columns.length];
                for (int c = 0; c < columns.length; c++) {
                    ParquetColumn column = columns[c];
                    if (PageColumnReader.supports(column, encodings(block, column))) {
                        pageReaders[c] = new PageColumnReader(pages.getPageReader(column.descriptor()), column);
                    } else {
                        readers[c] = store.getColumnReader(column.descriptor());
                    }
                }
            }
            rowGroupsRead.incrementAndGet();
        } catch (IOException | RuntimeException e) {
            throw failure(e);
        }
    }

    private void openFile(Path path) throws IOException {
        closeFile();
        filePath = path;
        file = ParquetFiles.openReader(path);
        List<ParquetColumn> fileColumns = ParquetSchemas.columns(file.getFooter().getFileMetaData().getSchema(), path.toString());
        Map<String, ParquetColumn> byName = new HashMap<>();
        for (ParquetColumn column : fileColumns) {
            byName.put(column.name(), column);
        }
        columns = new ParquetColumn[schema.getFields().size()];
        for (int c = 0; c < columns.length; c++) {
            Field field = schema.getFields().get(c);
            ParquetColumn column = byName.get(field.getName());
            if (column == null || !column.field().getType().equals(field.getType())) {
                throw new QuiverException(ErrorCode.SOURCE_ERROR, "Parquet file " + path + " changed since the table was opened: column '"
                        + field.getName() + "' is " + (column == null ? "missing" : "now of type " + column.field().getType()));
            }
            columns[c] = column;
        }
        file.setRequestedSchema(requestedSchema());
    }

    private static Set<Encoding> encodings(BlockMetaData block, ParquetColumn column) {
        for (ColumnChunkMetaData chunk : block.getColumns()) {
            if (chunk.getPath().equals(ColumnPath.get(column.descriptor().getPath()))) {
                return chunk.getEncodings();
            }
        }
        return Set.of(Encoding.DELTA_BINARY_PACKED); // unknown: let parquet-java decode it
    }

    private MessageType requestedSchema() {
        MessageType fileSchema = file.getFooter().getFileMetaData().getSchema();
        Type[] fields = new Type[columns.length];
        for (int c = 0; c < columns.length; c++) {
            fields[c] = fileSchema.getType(columns[c].name());
        }
        return new MessageType(fileSchema.getName(), fields);
    }

    private VectorSchemaRoot decode(int count) {
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator);
        try {
            for (int c = 0; c < columns.length; c++) {
                ParquetColumn column = columns[c];
                if (pageReaders[c] != null) {
                    pageReaders[c].read(batch.getVector(c), count);
                } else {
                    ColumnDecoder.decode(column.kind(), readers[c], column.descriptor().getMaxDefinitionLevel(), batch.getVector(c), count);
                }
            }
            batch.setRowCount(count);
            return batch;
        } catch (RuntimeException e) {
            batch.close();
            throw failure(e);
        }
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
