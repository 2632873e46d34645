package dev.quiver.engine.operator.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.MemoryReservation;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The collected build side of a join: all build rows in one batch, the key columns, the hash
 * table over them (absent for a nested-loop join), and which rows found a match (for join types
 * that emit build rows by that). Everything it holds is accounted in its reservation, which
 * {@link #close()} returns.
 *
 * <p>The batch, keys and table are immutable once built and read concurrently by the probe
 * partitions of a collect-left join. {@link #markMatched} writes single bytes without
 * synchronization: Java never tears byte writes and every writer writes the same value, and the
 * partition that reads the marks at the end is ordered after all writers by
 * {@link SharedBuild#finishProbe()}.
 */
final class BuildSide implements AutoCloseable {
    private final VectorSchemaRoot batch;
    private final List<FieldVector> keys;
    private final List<FieldVector> ownedKeys;
    private final JoinHashTable table;
    private final byte[] matched;
    private final MemoryReservation reservation;
    private boolean closed;

    private BuildSide(VectorSchemaRoot batch, List<FieldVector> keys, List<FieldVector> ownedKeys, JoinHashTable table,
            byte[] matched, MemoryReservation reservation) {
        this.batch = batch;
        this.keys = keys;
        this.ownedKeys = ownedKeys;
        this.table = table;
        this.matched = matched;
        this.reservation = reservation;
    }

    /** What to build and from where. */
    record Spec(String consumer, Schema schema, int partitions, IntFunction<BatchStream> open, List<PhysicalExpr> keys,
            List<KeyKernel> kernels, boolean hashed, boolean trackMatches) {
        Spec {
            requireNonNull(consumer, "consumer is null");
            requireNonNull(schema, "schema is null");
            requireNonNull(open, "open is null");
            keys = List.copyOf(requireNonNull(keys, "keys is null"));
            kernels = List.copyOf(requireNonNull(kernels, "kernels is null"));
        }
    }

    /** Collects the input, concatenates it, and builds the table; on failure releases everything and rethrows. */
    static BuildSide build(Spec spec, TaskContext context, PartitionMetrics metrics) {
        MemoryReservation reservation = context.memoryPool().newReservation(spec.consumer());
        List<VectorSchemaRoot> batches;
        try {
            batches = BuildCollector.collect(spec.partitions(), spec.open(), reservation, context,
                    context.taskId() + "-" + spec.consumer().replace(' ', '_'));
        } catch (RuntimeException | Error e) {
            reservation.close();
            throw e;
        }
        return assemble(spec, batches, reservation, context, metrics);
    }

    /**
     * Concatenates {@code batches} (whose bytes {@code reservation} holds) and builds the table,
     * growing the reservation by what that needs; the result owns the reservation. On failure the
     * batches are closed, the reservation too, and the exception rethrown.
     */
    static BuildSide assemble(Spec spec, List<VectorSchemaRoot> batches, MemoryReservation reservation, TaskContext context,
            PartitionMetrics metrics) {
        VectorSchemaRoot batch = null;
        List<FieldVector> ownedKeys = new ArrayList<>();
        try {
            // time spent collecting belongs to the inputs; this operator's compute starts here
            long collected = System.nanoTime();
            batch = BatchConcat.concat(spec.schema(), batches, reservation, context.allocator());
            int rows = batch.getRowCount();
            List<FieldVector> keys = KeyKernel.keyVectors(spec.keys(), batch, context.allocator(), ownedKeys);
            for (FieldVector evaluated : ownedKeys) {
                reservation.grow(evaluated.getBufferSize());
            }
            JoinHashTable table = null;
            if (spec.hashed()) {
                reservation.grow(JoinHashTable.estimatedBytes(rows));
                table = JoinHashTable.build(keys, spec.kernels(), rows);
            }
            byte[] matched = null;
            if (spec.trackMatches()) {
                reservation.grow(rows);
                matched = new byte[rows];
            }
            metrics.addElapsedCompute(System.nanoTime() - collected);
            metrics.recordMemory(reservation.peak());
            return new BuildSide(batch, List.copyOf(keys), ownedKeys, table, matched, reservation);
        } catch (RuntimeException | Error e) {
            ownedKeys.forEach(FieldVector::close);
            if (batch != null) {
                batch.close();
            } else {
                batches.forEach(VectorSchemaRoot::close);
            }
            reservation.close();
            throw e;
        }
    }

    /**
     * What {@link #assemble} needs beyond the batches' own bytes, at most: the hash table, the
     * match marks, and the largest column while it is being concatenated (key expressions that
     * are not plain columns are not counted: they are rare and small next to the table).
     */
    static long assemblyBytes(Spec spec, List<VectorSchemaRoot> batches) {
        long rows = 0;
        long largestColumn = 0;
        for (int c = 0; c < spec.schema().getFields().size(); c++) {
            long column = 0;
            for (VectorSchemaRoot batch : batches) {
                column += batch.getVector(c).getBufferSize();
            }
            largestColumn = Math.max(largestColumn, column);
        }
        for (VectorSchemaRoot batch : batches) {
            rows += batch.getRowCount();
        }
        int tableRows = (int) Math.min(rows, 1 << 29);
        return (batches.size() > 1 ? largestColumn : 0) + (spec.hashed() ? JoinHashTable.estimatedBytes(tableRows) : 0)
                + (spec.trackMatches() ? rows : 0);
    }

    int rowCount() {
        return batch.getRowCount();
    }

    VectorSchemaRoot batch() {
        return batch;
    }

    List<FieldVector> keys() {
        return keys;
    }

    JoinHashTable table() {
        return table;
    }

    void markMatched(int[] rows, int count) {
        byte[] marks = matched;
        for (int i = 0; i < count; i++) {
            marks[rows[i]] = 1;
        }
    }

    boolean isMatched(int row) {
        return matched[row] != 0;
    }

    long peakMemory() {
        return reservation.peak();
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            ownedKeys.forEach(FieldVector::close);
            batch.close();
            reservation.close();
        }
    }
}
