package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.batch.Take;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.MemoryReservation;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One partition of a {@link HashAggregateExec}: consumes its input into a {@link GroupHashTable}
 * and {@link Accumulator}s, then emits the groups in batches of at most the task's batch size.
 *
 * <pre>
 *            input batch                      all groups emitted, input left
 *   READING ------------> READING    EMITTING ------------------------------> READING (groups dropped)
 *      |  input ended, or PARTIAL must flush   |  all groups emitted, input ended
 *      +-------------------------------------> EMITTING ---------------------> DONE
 * </pre>
 *
 * <p>Memory: before each batch the partition reserves what its arrays will hold if every row of
 * the batch is a new group; after the batch the reservation is trimmed to what they hold. FINAL
 * and SINGLE fail with {@link dev.quiver.engine.error.ResourcesExhaustedException} when the pool
 * says no. PARTIAL never fails: it emits what it holds and starts over, and once it sees that it
 * reduces rows poorly it emits what it holds and from then on skips the hashing: each input batch
 * becomes a batch of state rows, one per input row (see {@link PassThrough}).
 */
final class AggregateStream implements BatchStream {
    /** Rows a PARTIAL aggregate sees before it judges how well it reduces them. */
    static final long REDUCTION_CHECK_ROWS = 100_000;
    /**
     * Groups per input row above which a PARTIAL aggregate stops hashing. High, because a partial
     * aggregate that reduces even a little saves the repartition and the final aggregate more work
     * than the hashing costs: 200k keys drawn uniformly give about 0.78 groups per row after 100k
     * rows and reduce 15-fold over 3M rows.
     */
    static final double SKIP_GROUPS_PER_ROW = 0.9;

    private enum State { READING, EMITTING, DONE }

    private final AggregateMode mode;
    private final List<PhysicalExpr> groupExprs;
    private final List<AggregateExpr> aggregates;
    /** Rows where this is TRUE create their group and update nothing (see {@link HashAggregateExec#seedFlag()}); null: none. */
    private final PhysicalExpr seedFlag;
    private final Schema schema;
    private final BatchStream input;
    private final TaskContext context;
    private final PartitionMetrics metrics;
    private final MemoryReservation reservation;
    private final GroupHashTable table;
    private final Accumulator[] accumulators;
    private final int[][] stateColumns;
    /** Without GROUP BY: for a string MIN, the MAX of the same argument computed in the same pass (-1: none). */
    private final int[] pairedMax;
    private int[] groupIds = new int[0];
    private int[] seedRows = new int[0];

    private State state = State.READING;
    private VectorSchemaRoot pendingInput;
    private boolean inputDone;
    private boolean flushAfterBatch;
    private PassThrough passThrough;
    private long rowsSinceFlush;
    private int emitPosition;
    private int emitEnd;
    private boolean closed;

    AggregateStream(HashAggregateExec plan, int partition, BatchStream input, TaskContext context) {
        this.mode = plan.mode();
        this.groupExprs = plan.groupExprs();
        this.aggregates = plan.aggregates();
        this.seedFlag = plan.seedFlag().orElse(null);
        this.schema = plan.schema();
        this.input = input;
        this.context = context;
        this.metrics = plan.metrics().partition(partition);
        this.table = groupExprs.isEmpty() ? null : new GroupHashTable(groupExprs.stream().map(PhysicalExpr::type).toList());
        this.accumulators = new Accumulator[aggregates.size()];
        this.stateColumns = new int[aggregates.size()][];
        int column = groupExprs.size();
        for (int a = 0; a < aggregates.size(); a++) {
            AggregateExpr aggregate = aggregates.get(a);
            accumulators[a] = Accumulators.create(aggregate, mode, context.allocator());
            if (mode == AggregateMode.FINAL) {
                int states = aggregate.stateFields().size();
                stateColumns[a] = new int[states];
                for (int s = 0; s < states; s++) {
                    stateColumns[a][s] = column++;
                }
            }
        }
        this.pairedMax = table == null && mode != AggregateMode.FINAL ? StringMinMaxAccumulator.pairs(aggregates, accumulators) : null;
        this.reservation = context.memoryPool().newReservation("HashAggregateExec[mode=" + mode + ", partition=" + partition + "]");
        if (table == null) {
            for (Accumulator accumulator : accumulators) {
                accumulator.ensureCapacity(1);
            }
        }
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public VectorSchemaRoot next() {
        VectorSchemaRoot batch = advance();
        metrics.setPendingOutputRows(pendingOutputRows());
        return batch;
    }

    /**
     * The groups this partition will still emit from what it holds: the rest of the groups being
     * emitted, or the groups built so far (a global aggregate always emits its one row). A PARTIAL
     * aggregate flushing because the pool refused a batch holds that batch unread: it counts as many
     * groups per row as the groups being emitted came from (the batch was pulled from the input, so
     * without it the rows held would not match the input read).
     */
    private long pendingOutputRows() {
        return switch (state) {
            case DONE -> 0;
            case EMITTING -> emitEnd - emitPosition
                    + (pendingInput == null ? 0 : Math.round(pendingInput.getRowCount() * Math.min(1.0, emitEnd / (double) Math.max(1, rowsSinceFlush))));
            case READING -> table == null ? 1 : table.groupCount();
        };
    }

    private VectorSchemaRoot advance() {
        while (true) {
            switch (state) {
                case DONE:
                    return null;
                case EMITTING:
                    if (emitPosition < emitEnd) {
                        long start = System.nanoTime();
                        try {
                            return emitBatch();
                        } finally {
                            metrics.addElapsedCompute(System.nanoTime() - start);
                        }
                    }
                    finishEmitting();
                    break;
                case READING:
                    VectorSchemaRoot batch = pendingInput != null ? pendingInput : input.next();
                    pendingInput = null;
                    if (batch == null) {
                        inputDone = true;
                        startEmitting();
                        break;
                    }
                    if (passThrough != null) {
                        long passStart = System.nanoTime();
                        try (batch) {
                            VectorSchemaRoot states = passThrough(batch);
                            if (states != null) {
                                return states;
                            }
                        } finally {
                            metrics.addElapsedCompute(System.nanoTime() - passStart);
                        }
                        break;
                    }
                    long start = System.nanoTime();
                    try {
                        consume(batch);
                    } finally {
                        metrics.addElapsedCompute(System.nanoTime() - start);
                    }
                    break;
                default:
                    throw new IllegalStateException("unknown state " + state);
            }
        }
    }

    private void consume(VectorSchemaRoot batch) {
        int rows = batch.getRowCount();
        boolean reserved;
        try {
            reserved = reserveFor(rows);
        } catch (RuntimeException e) {
            batch.close();
            throw e;
        }
        if (!reserved) {
            if (table.groupCount() > 0) {
                pendingInput = batch;
                startEmitting();
                return;
            }
            flushAfterBatch = true;
        }
        try (batch) {
            aggregate(batch, rows);
        }
        afterBatch();
    }

    private void aggregate(VectorSchemaRoot batch, int rows) {
        if (rows == 0) {
            return;
        }
        if (groupIds.length < rows) {
            groupIds = new int[Math.max(rows, context.batchSize())];
        }
        List<FieldVector> owned = new ArrayList<>();
        try {
            if (table == null) {
                Arrays.fill(groupIds, 0, rows, 0);
            } else {
                for (int k = 0; k < groupExprs.size(); k++) {
                    table.column(k).load(vector(groupExprs.get(k), batch, owned), rows);
                }
                table.ensureCapacity(table.groupCount() + rows);
                table.findOrInsert(rows, groupIds);
                for (Accumulator accumulator : accumulators) {
                    accumulator.ensureCapacity(table.capacity());
                }
            }
            updateAccumulators(withoutSeedRows(batch, rows, owned), owned);
        } finally {
            owned.forEach(FieldVector::close);
        }
        rowsSinceFlush += rows;
    }

    /**
     * The rows of {@code batch} that update the accumulators: all of them, or (with a seed flag)
     * those that are not seed rows, taken into a new batch whose vectors join {@code owned} and
     * whose group ids replace those in {@link #groupIds}; null when every row is a seed row.
     */
    private VectorSchemaRoot withoutSeedRows(VectorSchemaRoot batch, int rows, List<FieldVector> owned) {
        if (seedFlag == null) {
            return batch;
        }
        if (groupIds.length < rows) {
            groupIds = new int[rows];
        }
        FieldVector flags = vector(seedFlag, batch, owned);
        int kept = 0;
        if (seedRows.length < rows) {
            seedRows = new int[rows];
        }
        for (int i = 0; i < rows; i++) {
            if (flags.isNull(i) || ((BitVector) flags).get(i) == 0) {
                seedRows[kept++] = i;
            }
        }
        if (kept == rows) {
            return batch;
        }
        if (kept == 0) {
            return null;
        }
        for (int i = 0; i < kept; i++) {
            groupIds[i] = groupIds[seedRows[i]];
        }
        VectorSchemaRoot real = Take.take(batch, seedRows, kept, context.allocator());
        owned.addAll(real.getFieldVectors());
        return real;
    }

    private void updateAccumulators(VectorSchemaRoot batch, List<FieldVector> owned) {
        if (batch == null) {
            return;
        }
        int rows = batch.getRowCount();
        for (int a = 0; a < accumulators.length; a++) {
            if (mode == AggregateMode.FINAL) {
                List<FieldVector> states = new ArrayList<>(stateColumns[a].length);
                for (int column : stateColumns[a]) {
                    states.add(batch.getVector(column));
                }
                accumulators[a].merge(groupIds, rows, states);
            } else if (table == null && pairedMax[a] == StringMinMaxAccumulator.PAIRED) {
                continue; // updated with its MIN
            } else {
                List<PhysicalExpr> exprs = aggregates.get(a).inputs();
                List<FieldVector> inputs = new ArrayList<>(exprs.size());
                for (PhysicalExpr expr : exprs) {
                    inputs.add(vector(expr, batch, owned));
                }
                if (table == null && pairedMax[a] >= 0) {
                    StringMinMaxAccumulator.updatePair(accumulators[a], accumulators[pairedMax[a]], groupIds, rows, inputs.get(0));
                } else if (table == null) {
                    accumulators[a].updateSingleGroup(groupIds, rows, inputs);
                } else {
                    accumulators[a].update(groupIds, rows, inputs);
                }
            }
        }
    }

    /**
     * The state rows of {@code batch} in pass-through mode; null if it held only seed rows, whose
     * group this partition emitted before it switched to pass-through (seed rows come first).
     */
    private VectorSchemaRoot passThrough(VectorSchemaRoot batch) {
        List<FieldVector> owned = new ArrayList<>();
        try {
            VectorSchemaRoot rows = withoutSeedRows(batch, batch.getRowCount(), owned);
            return rows == null ? null : passThrough.convert(rows);
        } finally {
            owned.forEach(FieldVector::close);
        }
    }

    /** The expression's values over the batch: a column of the batch itself, or a new vector added to {@code owned}. */
    private FieldVector vector(PhysicalExpr expr, VectorSchemaRoot batch, List<FieldVector> owned) {
        if (expr instanceof ColumnExpr column) {
            return batch.getVector(column.index());
        }
        FieldVector vector = expr.evaluate(batch, context.allocator());
        owned.add(vector);
        return vector;
    }

    /** Reserves for a batch of {@code rows} new groups; false if a PARTIAL aggregate was refused. */
    private boolean reserveFor(int rows) {
        long needed = bytesFor(table == null ? 1 : table.groupCount() + rows);
        long delta = needed - reservation.size();
        if (delta <= 0) {
            return true;
        }
        if (mode == AggregateMode.PARTIAL) {
            return reservation.tryGrow(delta) || table == null;
        }
        reservation.grow(delta);
        return true;
    }

    private long bytesFor(int groups) {
        int capacity = table == null ? 1 : Math.max(table.capacity(), GroupHashTable.capacityFor(groups));
        long bytes = table == null ? 0 : table.bytesForCapacity(capacity);
        for (Accumulator accumulator : accumulators) {
            bytes += (long) capacity * accumulator.bytesPerGroup() + accumulator.variableBytes();
        }
        return bytes;
    }

    private long heldBytes() {
        long bytes = table == null ? 0 : table.sizeInBytes();
        for (Accumulator accumulator : accumulators) {
            bytes += accumulator.sizeInBytes();
        }
        return bytes;
    }

    private void afterBatch() {
        long held = heldBytes();
        long size = reservation.size();
        if (held <= size) {
            reservation.shrink(size - held);
        } else if (mode != AggregateMode.PARTIAL) {
            reservation.grow(held - size);
        } else if (!reservation.tryGrow(held - size) && table != null) {
            flushAfterBatch = true;
        }
        if (mode == AggregateMode.PARTIAL && table != null) {
            if (passThrough == null && rowsSinceFlush >= REDUCTION_CHECK_ROWS
                    && table.groupCount() > rowsSinceFlush * SKIP_GROUPS_PER_ROW) {
                passThrough = new PassThrough(groupExprs, aggregates, schema, context.allocator());
            }
            if (flushAfterBatch || passThrough != null) {
                startEmitting();
            }
        }
    }

    private void startEmitting() {
        state = State.EMITTING;
        emitPosition = 0;
        emitEnd = table == null ? 1 : table.groupCount();
    }

    private void finishEmitting() {
        flushAfterBatch = false;
        rowsSinceFlush = 0;
        if (inputDone) {
            release();
            state = State.DONE;
        } else {
            dropGroups();
            state = State.READING;
        }
    }

    private VectorSchemaRoot emitBatch() {
        int count = Math.min(context.batchSize(), emitEnd - emitPosition);
        List<Field> fields = schema.getFields();
        List<FieldVector> vectors = new ArrayList<>(fields.size());
        try {
            int field = 0;
            if (table != null) {
                table.output(fields.subList(0, groupExprs.size()), emitPosition, count, context.allocator(), vectors);
                field = groupExprs.size();
            }
            for (int a = 0; a < accumulators.length; a++) {
                if (mode == AggregateMode.PARTIAL) {
                    int states = aggregates.get(a).stateFields().size();
                    accumulators[a].state(fields.subList(field, field + states), emitPosition, count, context.allocator(), vectors);
                    field += states;
                } else {
                    vectors.add(accumulators[a].evaluate(fields.get(field++), emitPosition, count, context.allocator()));
                }
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        emitPosition += count;
        return Batches.of(schema, vectors, count);
    }

    private void dropGroups() {
        if (table != null) {
            table.clear();
        }
        for (Accumulator accumulator : accumulators) {
            accumulator.clear();
        }
        if (table == null) {
            for (Accumulator accumulator : accumulators) {
                accumulator.ensureCapacity(1);
            }
        }
        reservation.shrink(reservation.size() - heldBytes());
    }

    private void release() {
        metrics.recordMemory(reservation.peak());
        if (table != null) {
            table.clear();
        }
        for (Accumulator accumulator : accumulators) {
            accumulator.clear();
        }
        reservation.free();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        state = State.DONE;
        try {
            if (pendingInput != null) {
                pendingInput.close();
                pendingInput = null;
            }
            input.close();
        } finally {
            release();
            reservation.close();
        }
    }
}
