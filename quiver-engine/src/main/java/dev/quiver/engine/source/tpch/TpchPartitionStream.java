package dev.quiver.engine.source.tpch;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.metrics.PartitionMetrics;
import io.trino.tpch.TpchEntity;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Generates the rows of one scan partition as it is pulled, {@code batchSize} rows at a time,
 * writing only the projected columns. The generator is created on the first pull, so that
 * {@code execute} stays cheap.
 */
final class TpchPartitionStream<E extends TpchEntity> implements BatchStream {
    private final Schema schema;
    private final List<TpchColumnDef<E>> columns;
    private final Supplier<Iterator<E>> generator;
    private final BufferAllocator allocator;
    private final int batchSize;
    private final PartitionMetrics metrics;
    private final Object[] rows;
    private Iterator<E> iterator;
    private boolean finished;

    TpchPartitionStream(Schema schema, List<TpchColumnDef<E>> columns, Supplier<Iterator<E>> generator,
            BufferAllocator allocator, int batchSize, PartitionMetrics metrics) {
        this.schema = requireNonNull(schema, "schema is null");
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
        this.generator = requireNonNull(generator, "generator is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.batchSize = batchSize;
        this.rows = new Object[batchSize];
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public VectorSchemaRoot next() {
        if (finished) {
            return null;
        }
        long start = System.nanoTime();
        try {
            if (iterator == null) {
                iterator = generator.get();
            }
            int count = 0;
            while (count < batchSize && iterator.hasNext()) {
                rows[count++] = iterator.next();
            }
            if (count == 0) {
                close();
                return null;
            }
            return write(count);
        } finally {
            metrics.addElapsedCompute(System.nanoTime() - start);
        }
    }

    @SuppressWarnings("unchecked")
    private VectorSchemaRoot write(int count) {
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator);
        try {
            for (int c = 0; c < columns.size(); c++) {
                TpchColumnDef<E> column = columns.get(c);
                FieldVector vector = batch.getVector(c);
                column.allocate(vector, count);
                TpchColumnDef.ColumnWriter<E> writer = column.writer();
                for (int r = 0; r < count; r++) {
                    writer.write(vector, r, (E) rows[r]);
                }
            }
            batch.setRowCount(count);
            return batch;
        } catch (RuntimeException | Error e) {
            batch.close();
            throw e;
        } finally {
            Arrays.fill(rows, 0, count, null);
        }
    }

    @Override
    public void close() {
        finished = true;
        iterator = null;
    }
}
