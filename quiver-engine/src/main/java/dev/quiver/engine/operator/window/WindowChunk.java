package dev.quiver.engine.operator.window;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.MemoryReservation;
import dev.quiver.engine.operator.sort.SortKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.VectorAppender;

/**
 * The rows of complete window partitions that a {@link WindowStream} evaluates together: the
 * input batches (not owned), their {@link PartitionLayout}, and what the evaluators share — each
 * argument expression evaluated over all rows as one vector, and the frame of every row per frame.
 * Everything it computes is reserved in the stream's reservation and released by {@link #close()}.
 */
final class WindowChunk implements AutoCloseable {
    private final List<VectorSchemaRoot> batches;
    private final PartitionLayout layout;
    private final List<SortKey> orderKeys;
    private final BufferAllocator allocator;
    private final MemoryReservation reservation;
    private final Map<PhysicalExpr, FieldVector> columns = new HashMap<>();
    private final Map<WindowFrame, FrameBounds> frames = new HashMap<>();
    private final List<FieldVector> owned = new ArrayList<>();
    private long reserved;

    WindowChunk(List<VectorSchemaRoot> batches, PartitionLayout layout, List<SortKey> orderKeys, BufferAllocator allocator,
            MemoryReservation reservation) {
        this.batches = List.copyOf(requireNonNull(batches, "batches is null"));
        this.layout = requireNonNull(layout, "layout is null");
        this.orderKeys = requireNonNull(orderKeys, "orderKeys is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.reservation = requireNonNull(reservation, "reservation is null");
    }

    int rows() {
        return layout.rows();
    }

    PartitionLayout layout() {
        return layout;
    }

    BufferAllocator allocator() {
        return allocator;
    }

    /** Grows the reservation by {@code bytes} for state this chunk's evaluators hold until it closes. */
    void reserve(long bytes) {
        reservation.grow(bytes);
        reserved += bytes;
    }

    /** Grows the reservation by {@code bytes} for state held only until {@link #release}. */
    void reserveTransient(long bytes) {
        reservation.grow(bytes);
    }

    void release(long bytes) {
        reservation.shrink(bytes);
    }

    /** {@code expr} evaluated over every row of the chunk, as one vector the chunk owns. */
    FieldVector column(PhysicalExpr expr) {
        FieldVector cached = columns.get(expr);
        if (cached != null) {
            return cached;
        }
        FieldVector column = concat(expr);
        try {
            reserve(column.getBufferSize());
        } catch (RuntimeException e) {
            column.close();
            throw e;
        }
        columns.put(expr, column);
        return column;
    }

    private FieldVector concat(PhysicalExpr expr) {
        List<FieldVector> parts = new ArrayList<>(batches.size());
        try {
            for (VectorSchemaRoot batch : batches) {
                parts.add(expr.evaluate(batch, allocator));
            }
            if (parts.size() == 1) {
                FieldVector only = parts.get(0);
                parts.clear();
                return only;
            }
            FieldVector target = parts.get(0).getField().createVector(allocator);
            try {
                target.setInitialCapacity(Math.max(rows(), 1));
                target.allocateNew();
                VectorAppender appender = new VectorAppender(target);
                for (FieldVector part : parts) {
                    part.accept(appender, null);
                }
                target.setValueCount(rows());
                return target;
            } catch (RuntimeException e) {
                target.close();
                throw e;
            }
        } finally {
            parts.forEach(FieldVector::close);
        }
    }

    /** Takes ownership of {@code vector} (reserving it) until the chunk closes. */
    FieldVector own(FieldVector vector) {
        try {
            reserve(vector.getBufferSize());
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
        owned.add(vector);
        return vector;
    }

    /** The frame of every row under {@code frame}. */
    FrameBounds frame(WindowFrame frame) {
        FrameBounds cached = frames.get(frame);
        if (cached != null) {
            return cached;
        }
        reserve(FrameBounds.estimateBytes(rows()));
        RangeKeys keys = null;
        if (frame.units() == WindowFrame.Units.RANGE && (frame.start().hasOffset() || frame.end().hasOffset())) {
            SortKey key = orderKeys.get(0);
            reserve(RangeKeys.estimateBytes(rows()));
            keys = RangeKeys.of(column(key.expr()), key, frame);
        }
        FrameBounds bounds = FrameBounds.compute(frame, layout, keys);
        frames.put(frame, bounds);
        return bounds;
    }

    @Override
    public void close() {
        columns.values().forEach(FieldVector::close);
        columns.clear();
        owned.forEach(FieldVector::close);
        owned.clear();
        frames.clear();
        reservation.shrink(reserved);
        reserved = 0;
    }
}
