package dev.quiver.engine.source.tpch;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.ForeignAllocation;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A scan partition served from a {@link TpchDataCache}: on the first pull it makes sure the part's
 * projected columns are kept (generating them if not), then hands out the kept batches as vectors
 * of the query's allocator over the cache's memory, without copying it ({@link #share}). If the
 * part does not fit in the cache it generates the part directly.
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
                vectors.add(share(part.vector(column, batch), allocator));
            }
        } catch (RuntimeException | Error e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        VectorSchemaRoot result = new VectorSchemaRoot(schema.getFields(), vectors, rows);
        metrics.addElapsedCompute(System.nanoTime() - start);
        return result;
    }

    /**
     * A vector of {@code allocator} reading {@code source}'s memory, which stays the cache's.
     *
     * <p>Each buffer of the result is a {@linkplain ForeignAllocation foreign allocation} of
     * {@code allocator} that holds one reference on the cache's buffer and gives it back when the
     * query releases it. Arrow's own sharing ({@code retain(buffer, allocator)}, transfer pairs)
     * only works between allocators of one root, and the cache has its own root, outside every
     * query's. The query is charged the bytes it reads, as it was for a copy, so its allocator and
     * pool see the batch like any other; the cache's accounting does not change.
     *
     * <p>Only the bytes holding the {@code count} values are shared, so the result has no spare
     * capacity: an operator appending to it reallocates (copies) instead of writing into the cache.
     * Operators never write into their input vectors in place (see {@code BatchStream}).
     */
    static FieldVector share(FieldVector source, BufferAllocator allocator) {
        int count = source.getValueCount();
        List<ArrowBuf> buffers = source.getFieldBuffers();
        long[] sizes = usedBytes(source, count);
        List<ArrowBuf> shared = new ArrayList<>(buffers.size());
        try {
            for (int i = 0; i < buffers.size(); i++) {
                shared.add(shareBuffer(buffers.get(i), sizes[i], allocator));
            }
            FieldVector target = source.getField().createVector(allocator);
            try {
                // loading takes its own reference on each buffer (or a new all-valid validity buffer when
                // there are no nulls); a NOT NULL column (every TPC-H column) has none without counting them
                int nullCount = source.getField().isNullable() ? source.getNullCount() : 0;
                target.loadFieldBuffers(new ArrowFieldNode(count, nullCount), shared);
                return target;
            } catch (RuntimeException | Error e) {
                target.close();
                throw e;
            }
        } finally {
            shared.forEach(ArrowBuf::close);
        }
    }

    /** Bytes of each of {@link FieldVector#getFieldBuffers()} that hold the first {@code count} values. */
    private static long[] usedBytes(FieldVector source, int count) {
        long validityBytes = BitVectorHelper.getValidityBufferSize(count);
        if (source instanceof BaseVariableWidthVector variable) {
            long offsetBytes = count == 0 ? 0 : (long) (count + 1) * BaseVariableWidthVector.OFFSET_WIDTH;
            long dataBytes = count == 0 ? 0 : variable.getOffsetBuffer().getInt((long) count * BaseVariableWidthVector.OFFSET_WIDTH);
            return new long[] {validityBytes, offsetBytes, dataBytes};
        }
        if (source instanceof BitVector) {
            return new long[] {validityBytes, validityBytes};
        }
        if (source instanceof BaseFixedWidthVector fixed) {
            return new long[] {validityBytes, (long) count * fixed.getTypeWidth()};
        }
        // TPC-H columns are flat fixed- or variable-width vectors; a new column type needs its buffer sizes here
        throw new IllegalStateException("cannot share a cached " + source.getField() + " vector");
    }

    /** A buffer of {@code allocator} over the first {@code size} bytes of {@code cached}, holding a reference on it until released. */
    private static ArrowBuf shareBuffer(ArrowBuf cached, long size, BufferAllocator allocator) {
        if (size == 0) {
            return allocator.getEmpty();
        }
        CachedBuffer buffer = new CachedBuffer(cached, size);
        try {
            return allocator.wrapForeignAllocation(buffer);
        } catch (RuntimeException | Error e) {
            // Arrow releases the allocation itself when it fails after accounting for it, not when accounting fails
            buffer.release0();
            throw e;
        }
    }

    /** The cache's memory as seen by a query: holds a reference on the cache's buffer from construction until released, once. */
    private static final class CachedBuffer extends ForeignAllocation {
        private final ArrowBuf cached;
        private final AtomicBoolean released = new AtomicBoolean();

        private CachedBuffer(ArrowBuf cached, long size) {
            super(size, cached.memoryAddress());
            this.cached = cached;
            cached.getReferenceManager().retain();
        }

        @Override
        protected void release0() {
            if (released.compareAndSet(false, true)) {
                cached.getReferenceManager().release();
            }
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
