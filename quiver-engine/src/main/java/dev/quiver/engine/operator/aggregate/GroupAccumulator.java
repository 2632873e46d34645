package dev.quiver.engine.operator.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * The per-group state of one aggregate, for operators outside this package that aggregate over
 * groups of their own choosing (window aggregates, whose groups are frames). It is the same
 * {@link Accumulator} a {@link HashAggregateExec} uses, so an aggregate function exists once:
 * {@link AggregateMode#PARTIAL} accumulators take raw values ({@link #update}) and write partial
 * states ({@link #state}); {@link AggregateMode#FINAL} ones fold partial states in ({@link #merge})
 * and write final values ({@link #evaluate}); {@link AggregateMode#SINGLE} ones take raw values and
 * write final values, and are the only mode for aggregates without partial state (DISTINCT).
 *
 * <p>Used by one thread at a time. Groups are dense ids {@code [0, capacity)}; a group never
 * updated has the function's empty state (COUNT 0, others NULL).
 */
public final class GroupAccumulator {
    private final AggregateExpr aggregate;
    private final AggregateMode mode;
    private final Accumulator accumulator;

    private GroupAccumulator(AggregateExpr aggregate, AggregateMode mode, BufferAllocator allocator) {
        this.aggregate = requireNonNull(aggregate, "aggregate is null");
        this.mode = requireNonNull(mode, "mode is null");
        if (mode != AggregateMode.SINGLE && !hasPartialState(aggregate)) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, aggregate.display() + " has no partial state and needs SINGLE mode, not " + mode);
        }
        this.accumulator = Accumulators.create(aggregate, mode, requireNonNull(allocator, "allocator is null"));
    }

    public static GroupAccumulator create(AggregateExpr aggregate, AggregateMode mode, BufferAllocator allocator) {
        return new GroupAccumulator(aggregate, mode, allocator);
    }

    /** Whether {@code aggregate} has PARTIAL and FINAL forms, so that partial states of row sets can be merged. */
    public static boolean hasPartialState(AggregateExpr aggregate) {
        return !aggregate.distinct();
    }

    public AggregateExpr aggregate() {
        return aggregate;
    }

    /** Makes room for groups {@code [0, groups)}; new groups start empty. */
    public void ensureCapacity(int groups) {
        accumulator.ensureCapacity(groups);
    }

    /** Folds argument values {@code arg[0, rows)} (null for {@code COUNT(*)}) into groups {@code groupIds[0, rows)} (PARTIAL, SINGLE). */
    public void update(int[] groupIds, int rows, FieldVector arg) {
        checkNotMode(AggregateMode.FINAL, "update");
        accumulator.update(groupIds, rows, arg);
    }

    /** Folds partial states (rows {@code [0, rows)} of the {@link AggregateExpr#stateFields()} columns) into groups {@code groupIds[0, rows)} (FINAL). */
    public void merge(int[] groupIds, int rows, List<FieldVector> states) {
        checkMode(AggregateMode.FINAL, "merge");
        accumulator.merge(groupIds, rows, states);
    }

    /** The partial states of groups {@code [from, from + count)}: one vector per state field, owned by the caller (PARTIAL, FINAL). */
    public List<FieldVector> state(int from, int count, BufferAllocator allocator) {
        checkNotMode(AggregateMode.SINGLE, "state");
        List<FieldVector> out = new ArrayList<>();
        try {
            accumulator.state(aggregate.stateFields(), from, count, allocator, out);
            return out;
        } catch (RuntimeException e) {
            out.forEach(FieldVector::close);
            throw e;
        }
    }

    /** The final values of groups {@code [from, from + count)} as {@link AggregateExpr#outputField()} (FINAL, SINGLE). */
    public FieldVector evaluate(int from, int count, BufferAllocator allocator) {
        checkNotMode(AggregateMode.PARTIAL, "evaluate");
        return accumulator.evaluate(aggregate.outputField(), from, count, allocator);
    }

    /** Bytes the per-group state holds (to reserve in a memory pool). */
    public long sizeInBytes() {
        return accumulator.sizeInBytes();
    }

    /** Bytes one more group costs in the per-group arrays. */
    public int bytesPerGroup() {
        return accumulator.bytesPerGroup();
    }

    /** Drops every group. */
    public void clear() {
        accumulator.clear();
    }

    private void checkMode(AggregateMode expected, String operation) {
        if (mode != expected) {
            throw new IllegalStateException(operation + " needs a " + expected + " accumulator, not " + mode);
        }
    }

    private void checkNotMode(AggregateMode excluded, String operation) {
        if (mode == excluded) {
            throw new IllegalStateException(operation + " is not available on a " + mode + " accumulator");
        }
    }
}
