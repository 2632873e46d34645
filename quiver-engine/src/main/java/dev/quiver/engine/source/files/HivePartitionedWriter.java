package dev.quiver.engine.source.files;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Take;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.CastExpr;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.types.QuiverTypes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes batches into a Hive-style directory tree, one directory level per partition column
 * ({@code year=2024/month=01/data_0.parquet}), as DuckDB's {@code COPY ... (PARTITION_BY (...))}
 * and Spark write it: a value is its {@code CAST(... AS VARCHAR)} text with every character but
 * letters, digits, {@code .}, {@code _} and {@code -} percent-encoded (UTF-8); NULL is
 * {@value #NULL_PARTITION}. The partition columns are left out of the files. Each partition's
 * file stays open until {@link #close()}.
 */
public final class HivePartitionedWriter implements BatchFileWriter {
    /** The directory name part of a NULL partition value (Hive's, which DuckDB and Spark also read). */
    public static final String NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__";

    private final Path directory;
    private final FileFormat format;
    private final FileWriteOptions options;
    private final BufferAllocator allocator;
    private final List<PhysicalExpr> keyTexts = new ArrayList<>();
    private final List<String> keyNames = new ArrayList<>();
    private final List<Integer> dataColumns = new ArrayList<>();
    private final Schema dataSchema;
    private final Map<List<String>, BatchFileWriter> writers = new LinkedHashMap<>();
    private long rowCount;
    private boolean failed;
    private boolean closed;

    /**
     * @param directory the (existing, empty) directory the tree is written into
     * @param partitionColumns indexes into {@code schema} of the partition columns, in directory order
     */
    public HivePartitionedWriter(Path directory, Schema schema, List<Integer> partitionColumns, FileFormat format, FileWriteOptions options,
            BufferAllocator allocator) {
        this.directory = requireNonNull(directory, "directory is null");
        this.format = requireNonNull(format, "format is null");
        this.options = requireNonNull(options, "options is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        List<Field> fields = schema.getFields();
        Set<Integer> partitions = new HashSet<>(partitionColumns);
        if (partitionColumns.isEmpty() || partitions.size() != partitionColumns.size()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "PARTITION_BY needs distinct columns, got " + partitionColumns);
        }
        for (int column : partitionColumns) {
            Field field = fields.get(column);
            keyNames.add(field.getName());
            keyTexts.add(CastExpr.to(new ColumnExpr(column, field.getName(), field.getType(), field.isNullable()), QuiverTypes.UTF8));
        }
        List<Field> data = new ArrayList<>();
        for (int c = 0; c < fields.size(); c++) {
            if (!partitions.contains(c)) {
                dataColumns.add(c);
                data.add(fields.get(c));
            }
        }
        if (data.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "PARTITION_BY names every column (" + String.join(", ", keyNames)
                    + "); the files would hold no column");
        }
        this.dataSchema = new Schema(data);
    }

    @Override
    public void write(VectorSchemaRoot batch) {
        requireNonNull(batch, "batch is null");
        if (closed) {
            throw new IllegalStateException("partitioned writer for " + directory + " is closed");
        }
        int rows = batch.getRowCount();
        if (rows == 0) {
            return;
        }
        try {
            Map<List<String>, int[]> groups = groupRows(batch);
            VectorSchemaRoot data = new VectorSchemaRoot(dataSchema.getFields(),
                    dataColumns.stream().map(batch::getVector).toList(), rows); // a view: never closed, the caller owns the vectors
            for (Map.Entry<List<String>, int[]> group : groups.entrySet()) {
                int[] indices = group.getValue();
                try (VectorSchemaRoot part = Take.take(dataSchema, data, indices, indices.length, allocator)) {
                    writer(group.getKey()).write(part);
                }
            }
            rowCount += rows;
        } catch (RuntimeException e) {
            failed = true;
            throw e;
        }
    }

    /** Row indexes by partition key, in first-seen order. */
    private Map<List<String>, int[]> groupRows(VectorSchemaRoot batch) {
        int rows = batch.getRowCount();
        List<FieldVector> texts = new ArrayList<>();
        try {
            for (PhysicalExpr key : keyTexts) {
                texts.add(key.evaluate(batch, allocator));
            }
            Map<List<String>, Integer> ids = new LinkedHashMap<>();
            int[] groupOf = new int[rows];
            List<Integer> sizes = new ArrayList<>();
            List<String> previous = null;
            int id = -1;
            for (int r = 0; r < rows; r++) {
                List<String> key = new ArrayList<>(texts.size());
                for (FieldVector text : texts) {
                    key.add(text.isNull(r) ? null : new String(((VarCharVector) text).get(r), StandardCharsets.UTF_8));
                }
                if (!key.equals(previous)) {
                    id = ids.computeIfAbsent(key, k -> {
                        sizes.add(0);
                        return sizes.size() - 1;
                    });
                    previous = key;
                }
                groupOf[r] = id;
                sizes.set(id, sizes.get(id) + 1);
            }
            int[][] indices = new int[sizes.size()][];
            int[] filled = new int[sizes.size()];
            for (int g = 0; g < indices.length; g++) {
                indices[g] = new int[sizes.get(g)];
            }
            for (int r = 0; r < rows; r++) {
                indices[groupOf[r]][filled[groupOf[r]]++] = r;
            }
            Map<List<String>, int[]> groups = new LinkedHashMap<>();
            ids.forEach((key, g) -> groups.put(key, indices[g]));
            return groups;
        } finally {
            texts.forEach(FieldVector::close);
        }
    }

    private BatchFileWriter writer(List<String> key) {
        BatchFileWriter writer = writers.get(key);
        if (writer != null) {
            return writer;
        }
        Path partition = directory;
        for (int k = 0; k < key.size(); k++) {
            partition = partition.resolve(keyNames.get(k) + "=" + encode(key.get(k)));
        }
        try {
            Files.createDirectories(partition);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot create directory " + partition + ": " + e.getMessage(), e);
        }
        writer = FileWriters.create(format, partition.resolve("data_0" + format.extension()), dataSchema, options, allocator);
        writers.put(key, writer);
        return writer;
    }

    /** A partition value as a directory name part: percent-encoded, or {@value #NULL_PARTITION} for NULL. */
    public static String encode(String value) {
        if (value == null) {
            return NULL_PARTITION;
        }
        StringBuilder out = new StringBuilder(value.length());
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-')) {
                out.append(c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16))).append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }

    /** Partitions written so far. */
    public int partitionCount() {
        return writers.size();
    }

    @Override
    public long rowCount() {
        return rowCount;
    }

    /** Completes every partition's file; the first failure is thrown after all were closed. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        for (BatchFileWriter writer : writers.values()) {
            try {
                writer.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null && !failed) {
            throw failure;
        }
    }
}
