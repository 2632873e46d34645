package dev.quiver.engine.source.memory;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.files.SampledColumns;
import dev.quiver.engine.spi.Projections;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table held in memory as Arrow batches ({@code CREATE TABLE}, {@code INSERT}): one immutable
 * version of it. An insert makes the next version ({@link #withAppended}), which shares the
 * earlier batches; a query reads the version it planned against. Statistics: exact row count,
 * bytes and null counts; distinct counts estimated from a sample of the batches
 * ({@link SampledColumns}).
 *
 * <p>The owner of the table (the session) accounts its batches' memory and calls
 * {@link #release()} when the table is dropped.
 */
public final class InMemoryTable implements TableSource {
    private final long id;
    private final String name;
    private final Schema schema;
    private final List<StoredBatch> batches;
    private Statistics statistics;

    /**
     * @param id tells this table from another of the same name (after a DROP and CREATE); kept across versions
     */
    public InMemoryTable(long id, String name, Schema schema, List<StoredBatch> batches) {
        this.id = id;
        this.name = requireNonNull(name, "name is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.batches = List.copyOf(requireNonNull(batches, "batches is null"));
    }

    public long id() {
        return id;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Schema schema() {
        return schema;
    }

    public List<StoredBatch> batches() {
        return batches;
    }

    /** The next version: these batches and then {@code more}. */
    public InMemoryTable withAppended(List<StoredBatch> more) {
        List<StoredBatch> all = new ArrayList<>(batches);
        all.addAll(more);
        return new InMemoryTable(id, name, schema, all);
    }

    public long rowCount() {
        return batches.stream().mapToLong(StoredBatch::rowCount).sum();
    }

    /** Bytes of all batches' buffers. */
    public long bytes() {
        return batches.stream().mapToLong(StoredBatch::bytes).sum();
    }

    @Override
    public boolean insertable() {
        return true;
    }

    @Override
    public synchronized Statistics statistics() {
        if (statistics == null) {
            statistics = computeStatistics();
        }
        return statistics;
    }

    private Statistics computeStatistics() {
        long rows = rowCount();
        SampledColumns sample = sample();
        List<ColumnStatistics> columns = new ArrayList<>();
        for (int c = 0; c < schema.getFields().size(); c++) {
            int column = c;
            long nulls = batches.stream().mapToLong(batch -> batch.nullCount(column)).sum();
            Estimate distinct = sample.distinct(c, rows - nulls);
            columns.add(new ColumnStatistics(Estimate.exact(nulls), distinct, Optional.empty(), Optional.empty(), false));
        }
        return new Statistics(Estimate.exact(rows), Estimate.exact(bytes()), columns);
    }

    /** Up to {@link SampledColumns#PARTS} batches spread over the table, the first rows of each. */
    private SampledColumns sample() {
        SampledColumns sample = new SampledColumns(schema.getFields().size());
        int parts = Math.min(SampledColumns.PARTS, batches.size());
        for (int p = 0; p < parts; p++) {
            StoredBatch batch = batches.get((int) ((long) p * batches.size() / parts));
            if (batch.isReleased()) {
                continue;
            }
            for (int c = 0; c < schema.getFields().size(); c++) {
                sample.add(c, batch.nonNullValues(c, SampledColumns.ROWS_PER_PART));
            }
        }
        return sample;
    }

    @Override
    public ExecutionPlan scan(ScanRequest request) {
        List<Integer> columns = request.projection().orElseGet(() -> IntStream.range(0, schema.getFields().size()).boxed().toList());
        Schema projected = Projections.project("in-memory", name, schema, columns);
        int partitionCount = request.targetPartitions();
        List<List<MemoryChunk>> partitions = new ArrayList<>(partitionCount);
        for (int p = 0; p < partitionCount; p++) {
            List<MemoryChunk> chunks = new ArrayList<>();
            for (StoredBatch batch : batches.subList((int) ((long) batches.size() * p / partitionCount),
                    (int) ((long) batches.size() * (p + 1) / partitionCount))) {
                chunks.add(new MemoryChunk.Held(batch, columns));
            }
            partitions.add(chunks);
        }
        return new MemoryTableScanExec(name, projected, partitions);
    }

    /** Frees every batch of this table (all versions share them). */
    public void release() {
        batches.forEach(StoredBatch::release);
    }
}
