package dev.quiver.engine.source.tpch;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A scan partition served from a {@link TpchDataCache}: on the first pull it makes sure the part's
 * projected columns are kept (generating them if not), then hands out copies of the kept batches
 * in the query's allocator. If the part does not fit in the cache it generates the part directly.
 */
final class CachedPartitionStream implements BatchStream {
    private final Schema schema;
    private final Supplier<TpchDataCache.CachedPart> cached;
    private final Supplier<BatchStream> uncached;
    private final List<Integer> projection;
    private final BufferAllocator allocator;
    private final PartitionMetrics metrics;
    private TpchDataCache.CachedPart part;
    private BatchStream fallback;
    private int nextBatch;
    private boolean finished;

    CachedPartitionStream(Schema schema, List<Integer> projection, Supplier<TpchDataCache.CachedPart> cached, Supplier<BatchStream> uncached,
            BufferAllocator allocator, PartitionMetrics metrics) {
        this.schema = requireNonNull(schema, "schema is null");
        this.projection = List.copyOf(requireNonNull(projection, "projection is null"));
        this.cached = requireNonNull(cached, "cached is null");
        this.uncached = requireNonNull(uncached, "uncached is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
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
        if (part == null && fallback == null) {
            part = cached.get();
            if (part == null) {
                fallback = uncached.get();
            }
        }
        if (fallback != null) {
            return fallback.next();
        }
        if (nextBatch >= part.batchRows().size()) {
            close();
            return null;
        }
        long start = System.nanoTime();
        int batch = nextBatch++;
        int rows = part.batchRows().get(batch);
        List<FieldVector> vectors = new ArrayList<>(projection.size());
        try {
            for (int column : projection) {
                vectors.add(copy(part.vector(column, batch), allocator));
            }
        } catch (RuntimeException | Error e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        VectorSchemaRoot result = new VectorSchemaRoot(schema.getFields(), vectors, rows);
        metrics.addElapsedCompute(System.nanoTime() - start);
        return result;
    }

    /** A copy of {@code source} in {@code allocator}, copying whole buffers rather than values. */
    static FieldVector copy(FieldVector source, BufferAllocator allocator) {
        FieldVector target = source.getField().createVector(allocator);
        try {
            int count = source.getValueCount();
            long validityBytes = BitVectorHelper.getValidityBufferSize(count);
            if (source instanceof BaseVariableWidthVector from) {
                BaseVariableWidthVector to = (BaseVariableWidthVector) target;
                long offsetBytes = (long) (count + 1) * BaseVariableWidthVector.OFFSET_WIDTH;
                int dataBytes = from.getOffsetBuffer().getInt((long) count * BaseVariableWidthVector.OFFSET_WIDTH);
                to.allocateNew(Math.max(1, dataBytes), count);
                to.getValidityBuffer().setBytes(0, from.getValidityBuffer(), 0, validityBytes);
                to.getOffsetBuffer().setBytes(0, from.getOffsetBuffer(), 0, offsetBytes);
                to.getDataBuffer().setBytes(0, from.getDataBuffer(), 0, dataBytes);
                // without lastSet, setValueCount would take the copied offsets for unset gaps and overwrite them
                to.setLastSet(count - 1);
            } else {
                BaseFixedWidthVector from = (BaseFixedWidthVector) source;
                BaseFixedWidthVector to = (BaseFixedWidthVector) target;
                to.allocateNew(count);
                to.getValidityBuffer().setBytes(0, from.getValidityBuffer(), 0, validityBytes);
                to.getDataBuffer().setBytes(0, from.getDataBuffer(), 0, (long) count * from.getTypeWidth());
            }
            target.setValueCount(count);
            return target;
        } catch (RuntimeException | Error e) {
            target.close();
            throw e;
        }
    }

    @Override
    public void close() {
        finished = true;
        if (fallback != null) {
            fallback.close();
        }
    }
}
