package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.batch.Take;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
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
 * the batch is a new group; after the batch the reservation is trimmed to what they hold.
 *
 * <p>Spilling ({@code spill_enabled}, FINAL and SINGLE with GROUP BY whose aggregates all have a
 * partial state): the reservation is spillable; when the pool refuses it, the partition writes
 * every group it holds as partial-state rows (PARTIAL's output shape) into hash-partitioned spill
 * files ({@link AggregateSpiller}, {@link SpillPartitions}), empties the table and goes on. At the
 * end of its input, if it spilled, it writes what it holds too and then merges one spilled
 * partition at a time into an empty table (as FINAL merges states), emits its groups and goes to
 * the next; a partition that does not fit spills again, re-partitioned by other hash bits, up to
 * {@link SpillPartitions#MAX_DEPTH} levels. Groups are then emitted partition by partition, not in
 * order of first appearance.
 *
 * <p>Without spilling, FINAL and SINGLE fail with
 * {@link dev.quiver.engine.error.ResourcesExhaustedException} when the pool says no, saying why
 * they did not spill; so does a spilling partition when spilling cannot help (one input batch, or
 * one spill partition after the last level, does not fit).
 *
 * <p>PARTIAL never fails: it emits what it holds and starts over, and once it sees that it
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

    /*
     * mode, groupExprs, seedFlag, the accumulators and stateColumns change once, when a SINGLE
     * aggregate that spilled starts merging its spilled partitions: those hold partial states,
     * which FINAL-mode accumulators merge (see mergeSpilledStates).
     */
    private AggregateMode mode;
    private List<PhysicalExpr> groupExprs;
    private final List<AggregateExpr> aggregates;
    /** Rows where this is TRUE create their group and update nothing (see {@link HashAggregateExec#seedFlag()}); null: none. */
    private PhysicalExpr seedFlag;
    private final Schema schema;
    private final BatchStream input;
    private final TaskContext context;
    private final PartitionMetrics metrics;
    private final AggregateMemory reservation;
    private final GroupOutput output;
    private final GroupHashTable table;
    private final Accumulator[] accumulators;
    private int[][] stateColumns;
    /** Null when this partition does not spill. */
    private final AggregateSpiller spiller;
    /** What READING reads: the operator's input, then the spilled partition being merged. */
    private BatchStream current;
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
        this.current = input;
        this.context = context;
        this.metrics = plan.metrics().partition(partition);
        this.table = groupExprs.isEmpty() ? null : new GroupHashTable(groupExprs.stream().map(PhysicalExpr::type).toList());
        this.accumulators = new Accumulator[aggregates.size()];
        for (int a = 0; a < aggregates.size(); a++) {
            accumulators[a] = Accumulators.create(aggregates.get(a), mode, context.allocator());
        }
        this.stateColumns = mode == AggregateMode.FINAL ? stateColumns(groupExprs.size(), aggregates) : new int[aggregates.size()][];
        this.pairedMax = table == null && mode != AggregateMode.FINAL ? StringMinMaxAccumulator.pairs(aggregates, accumulators) : null;
        String consumer = "HashAggregateExec[mode=" + mode + ", partition=" + partition + "]";
        this.reservation = new AggregateMemory(plan, consumer, context);
        this.spiller = reservation.spills() ? new AggregateSpiller(context, consumer, plan.stateSchema().orElseThrow(), metrics) : null;
        this.output = new GroupOutput(table, accumulators, aggregates, groupExprs.size(), context.allocator());
        if (table == null) {
            for (Accumulator accumulator : accumulators) {
                accumulator.ensureCapacity(1);
            }
        }
    }

    /** The input column of each aggregate's state columns, which follow the {@code keys} group columns. */
    private static int[][] stateColumns(int keys, List<AggregateExpr> aggregates) {
        int[][] columns = new int[aggregates.size()][];
        int column = keys;
        for (int a = 0; a < aggregates.size(); a++) {
            columns[a] = new int[aggregates.get(a).stateFields().size()];
            for (int s = 0; s < columns[a].length; s++) {
                columns[a][s] = column++;
            }
        }
        return columns;
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
                    // a partition draining its input (or its spill files) in one call must still see a cancel
                    context.checkCancelled();
                    VectorSchemaRoot batch = pendingInput != null ? pendingInput : current.next();
                    pendingInput = null;
                    if (batch == null) {
                        inputDone = true;
                        if (spiller != null && spiller.levelSpilled()) {
                            long spillStart = System.nanoTime();
                            try {
                                finishSpilledLevel();
                            } finally {
                                metrics.addElapsedCompute(System.nanoTime() - spillStart);
                            }
                        } else {
                            startEmitting();
                        }
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

    /**
     * Reserves for a batch of {@code rows} new groups; false if a PARTIAL aggregate was refused. A
     * spilling aggregate refused spills what it holds and asks again.
     */
    private boolean reserveFor(int rows) {
        if (spiller != null) {
            if (!tryReserveFor(rows) && (table.groupCount() == 0 || !spillGroupsAndRetry(rows))) {
                throw reservation.cannotHelp(bytesFor(table.groupCount() + rows) - reservation.size(), "one input batch of " + rows
                        + " rows does not fit in what this aggregate may hold (its share of the pool) even with its table empty;"
                        + " lower batch_size or raise memory_limit");
            }
            return true;
        }
        long delta = bytesFor(table == null ? 1 : table.groupCount() + rows) - reservation.size();
        if (delta <= 0) {
            return true;
        }
        if (mode == AggregateMode.PARTIAL) {
            return reservation.tryGrow(delta) || table == null;
        }
        reservation.grow(delta);
        return true;
    }

    private boolean tryReserveFor(int rows) {
        return reservation.tryGrow(bytesFor(table.groupCount() + rows) - reservation.size());
    }

    private boolean spillGroupsAndRetry(int rows) {
        spillGroups(bytesFor(table.groupCount() + rows) - reservation.size());
        return tryReserveFor(rows);
    }

    /**
     * Writes every group held to the level's spill files as partial-state rows and empties the
     * table. A table of the last level fails instead: its groups are those of one partition
     * re-partitioned {@link SpillPartitions#MAX_DEPTH} times, so some group's state alone is too
     * large, or the share of the pool too small for any useful table.
     *
     * @param refused the bytes the pool refused, for that error
     */
    private void spillGroups(long refused) {
        if (!spiller.canSpill()) {
            int groups = table.groupCount();
            throw reservation.cannotHelp(refused, (groups == 1 ? "the state of a single group still does not fit"
                    : "the " + groups + " groups of one spill partition, re-partitioned " + SpillPartitions.MAX_DEPTH + " times, still do not fit")
                    + " in what this aggregate may hold (its share of the pool); raise memory_limit");
        }
        spiller.spill(table.groupCount(), (from, count) -> output.states(spiller.schema(), from, count), table::groupHash);
        dropGroups();
    }

    /** The input of a table that spilled has ended: spills what it holds too, then merges its first spilled partition. */
    private void finishSpilledLevel() {
        if (table.groupCount() > 0) {
            spillGroups(0); // this level spilled already, so it may spill again: nothing is refused here
        }
        spiller.finishLevel();
        nextPartition();
    }

    /** Starts merging the next spilled partition into an empty table, or ends. */
    private void nextPartition() {
        mergeSpilledStates();
        dropGroups();
        BatchStream next = spiller.nextPartition();
        if (next == null) {
            current = input;
            release();
            state = State.DONE;
            return;
        }
        current = next;
        inputDone = false;
        state = State.READING;
    }

    /**
     * From now on the table merges partial states, as FINAL does: a SINGLE aggregate's spilled
     * partitions hold the states its accumulators wrote, keys first; FINAL-mode accumulators merge
     * them (a FINAL aggregate's own input has that shape already).
     */
    private void mergeSpilledStates() {
        if (mode == AggregateMode.FINAL) {
            return;
        }
        Schema states = spiller.schema();
        List<PhysicalExpr> keys = new ArrayList<>(groupExprs.size());
        for (int k = 0; k < groupExprs.size(); k++) {
            Field field = states.getFields().get(k);
            keys.add(new ColumnExpr(k, field.getName(), field.getType(), field.isNullable()));
        }
        for (int a = 0; a < accumulators.length; a++) {
            accumulators[a].clear();
            accumulators[a] = Accumulators.create(aggregates.get(a), AggregateMode.FINAL, context.allocator());
        }
        groupExprs = keys;
        stateColumns = stateColumns(keys.size(), aggregates);
        seedFlag = null;
        mode = AggregateMode.FINAL;
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
        } else if (spiller != null) {
            if (!reservation.tryGrow(held - size)) {
                spillGroups(held - size);
            }
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
        if (inputDone && spiller != null && spiller.hasPending()) {
            nextPartition();
        } else if (inputDone) {
            release();
            state = State.DONE;
        } else {
            dropGroups();
            state = State.READING;
        }
    }

    private VectorSchemaRoot emitBatch() {
        int count = Math.min(context.batchSize(), emitEnd - emitPosition);
        VectorSchemaRoot batch = mode == AggregateMode.PARTIAL ? output.states(schema, emitPosition, count) : output.values(schema, emitPosition, count);
        emitPosition += count;
        return batch;
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
            try {
                if (spiller != null) {
                    spiller.close();
                }
            } finally {
                release();
                reservation.close();
            }
        }
    }
}
