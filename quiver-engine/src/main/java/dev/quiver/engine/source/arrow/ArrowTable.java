package dev.quiver.engine.source.arrow;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.files.DataFiles;
import dev.quiver.engine.source.files.SampledColumns;
import dev.quiver.engine.source.files.SplitAssigner;
import dev.quiver.engine.source.files.TableProperties;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.ipc.message.MessageMetadataResult;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table stored as one Arrow IPC file (the random-access file format, also called Feather v2) or
 * a directory of such files with one schema. Opening reads each footer and the metadata of each
 * record batch (not their bodies), so row counts are exact. A scan split is one record batch;
 * splits are grouped into partitions balanced by body bytes.
 */
public final class ArrowTable implements TableSource {
    /** The extensions of Arrow IPC files in a table directory. */
    public static final Set<String> EXTENSIONS = Set.of(".arrow", ".arrows", ".feather", ".ipc");

    private final String name;
    private final Path path;
    private final Schema schema;
    private final List<Path> files;
    private final List<ArrowBlockSplit> splits;
    private final Statistics statistics;
    private final List<List<Integer>> uniqueKeys;

    private ArrowTable(String name, Path path, Schema schema, List<Path> files, List<ArrowBlockSplit> splits, SampledColumns sample) {
        this.name = name;
        this.uniqueKeys = TableProperties.uniqueKeys(Storages.LOCAL, Location.of(path), schema);
        this.path = path;
        this.schema = schema;
        this.files = List.copyOf(files);
        this.splits = List.copyOf(splits);
        long rows = splits.stream().mapToLong(ArrowBlockSplit::rowCount).sum();
        long bytes = splits.stream().mapToLong(ArrowBlockSplit::bodyBytes).sum();
        List<ColumnStatistics> columns = new ArrayList<>(ArrowBlockSplit.columns(splits, IntStream.range(0, schema.getFields().size()).boxed().toList()));
        for (int c = 0; c < columns.size(); c++) {
            ColumnStatistics column = columns.get(c);
            columns.set(c, column.withDistinctCount(sample.distinct(c, rows - column.nullCount().value())));
        }
        this.statistics = new Statistics(Estimate.exact(rows), Estimate.inexact(bytes), columns);
    }

    /**
     * Opens an Arrow IPC file, or a directory whose {@code .arrow}, {@code .arrows},
     * {@code .feather} or {@code .ipc} files all have the same columns.
     *
     * @throws QuiverException SOURCE_ERROR naming the path for a missing path, an empty directory,
     *     a file that is not an Arrow IPC file, or files whose schemas differ; NOT_SUPPORTED for
     *     dictionary-encoded columns
     */
    public static ArrowTable open(String name, Path path) {
        requireNonNull(name, "name is null");
        requireNonNull(path, "path is null");
        List<Path> files = DataFiles.list(path, EXTENSIONS, "Arrow IPC");
        Schema schema = null;
        List<ArrowBlockSplit> splits = new ArrayList<>();
        SampledColumns sample;
        try (BufferAllocator allocator = new RootAllocator()) {
            for (Path file : files) {
                Schema fileSchema = readFile(file, allocator, splits);
                schema = schema == null ? fileSchema : unify(schema, fileSchema, files.get(0), file);
            }
            sample = ArrowSample.read(splits, schema.getFields().size(), allocator);
        }
        return new ArrowTable(name, path, schema, files, splits, sample);
    }

    private static Schema readFile(Path file, BufferAllocator allocator, List<ArrowBlockSplit> splits) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                ArrowFileReader reader = new ArrowFileReader(channel, allocator)) {
            Schema schema = reader.getVectorSchemaRoot().getSchema();
            for (Field field : schema.getFields()) {
                if (field.getDictionary() != null) {
                    throw new QuiverException(ErrorCode.NOT_SUPPORTED, "Arrow IPC file " + file + ": column '" + field.getName()
                            + "' is dictionary-encoded, which Quiver does not read; write it plain");
                }
            }
            List<ArrowBlock> blocks = reader.getRecordBlocks();
            for (int index = 0; index < blocks.size(); index++) {
                ArrowBlock block = blocks.get(index);
                RecordBatch batch = batchMetadata(channel, block, file);
                splits.add(new ArrowBlockSplit(file, index, batch.length(), block.getBodyLength(), nullCounts(batch, schema)));
            }
            return schema;
        } catch (QuiverException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot read Arrow IPC file " + file
                    + " (is it an Arrow IPC file? the streaming format is not read): " + reason, e);
        }
    }

    /** Reads only the batch's metadata message, which holds its length and each column's NULL count. */
    private static RecordBatch batchMetadata(FileChannel channel, ArrowBlock block, Path file) throws IOException {
        channel.position(block.getOffset());
        MessageMetadataResult message = MessageSerializer.readMessage(new ReadChannel(channel));
        if (message == null || message.getMessage().headerType() != MessageHeader.RecordBatch) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR,
                    "Arrow IPC file " + file + " is corrupt: no record batch at offset " + block.getOffset());
        }
        return (RecordBatch) message.getMessage().header(new RecordBatch());
    }

    /** The metadata has one node per field in depth-first order: a top-level column's node follows its predecessors' subtrees. */
    private static long[] nullCounts(RecordBatch batch, Schema schema) {
        List<Field> fields = schema.getFields();
        long[] nulls = new long[fields.size()];
        int node = 0;
        for (int c = 0; c < fields.size(); c++) {
            nulls[c] = node < batch.nodesLength() ? batch.nodes(node).nullCount() : 0;
            node += nodeCount(fields.get(c));
        }
        return nulls;
    }

    private static int nodeCount(Field field) {
        int count = 1;
        for (Field child : field.getChildren()) {
            count += nodeCount(child);
        }
        return count;
    }

    /** Files of one table may differ only in nullability. */
    private static Schema unify(Schema schema, Schema other, Path first, Path file) {
        List<Field> fields = schema.getFields();
        List<Field> otherFields = other.getFields();
        boolean same = fields.size() == otherFields.size();
        List<Field> unified = new ArrayList<>();
        for (int i = 0; same && i < fields.size(); i++) {
            Field a = fields.get(i);
            Field b = otherFields.get(i);
            same = a.getName().equals(b.getName()) && a.getType().equals(b.getType()) && a.getChildren().equals(b.getChildren());
            unified.add(a.isNullable() || !b.isNullable() ? a : b);
        }
        if (!same) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR,
                    "Arrow IPC file " + file + " has columns " + other + ", unlike " + first + " with " + schema);
        }
        return new Schema(unified);
    }

    @Override
    public String name() {
        return name;
    }

    public Path path() {
        return path;
    }

    public List<Path> files() {
        return files;
    }

    /** Record batches of all files: the splits of a scan. */
    public int batchCount() {
        return splits.size();
    }

    @Override
    public Schema schema() {
        return schema;
    }

    /** The keys declared in the table directory's {@value TableProperties#FILE_NAME}, if any. */
    @Override
    public List<List<Integer>> uniqueKeys() {
        return uniqueKeys;
    }

    @Override
    public Statistics statistics() {
        return statistics;
    }

    @Override
    public ExecutionPlan scan(ScanRequest request) {
        List<Integer> projection = request.projection()
                .orElseGet(() -> IntStream.range(0, schema.getFields().size()).boxed().toList());
        // without columns to read, a split costs its rows (count(*) reads only metadata)
        List<List<ArrowBlockSplit>> partitions = SplitAssigner.assign(splits,
                projection.isEmpty() ? ArrowBlockSplit::rowCount : ArrowBlockSplit::bodyBytes, request.targetPartitions());
        return new ArrowScanExec(name, schema, projection, partitions, files.size());
    }

    @Override
    public String toString() {
        return "arrow(" + path + ")." + name;
    }
}
