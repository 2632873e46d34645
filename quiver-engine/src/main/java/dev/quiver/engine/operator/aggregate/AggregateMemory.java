package dev.quiver.engine.operator.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.error.ResourcesExhaustedException;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.memory.MemoryReservation;
import java.util.List;

/**
 * The reservation of one hash aggregate partition, and what it says when the pool refuses it.
 * FINAL and SINGLE aggregates with GROUP BY whose aggregates all have a partial state spill
 * ({@code spill_enabled}): theirs is a spillable reservation, asked with {@link #tryGrow}. The
 * others {@link #grow} it and fail saying why they did not spill; PARTIAL never needs to (it emits
 * what it holds early).
 *
 * <p>PARTIAL's reservation is spillable too, though it writes nothing to disk: refused, it emits
 * early, and being held to its fair share keeps it from taking the memory a spilling FINAL
 * aggregate of the same query needs for one batch (which would fail it, its table being empty).
 */
final class AggregateMemory implements AutoCloseable {
    private final MemoryPool pool;
    private final MemoryReservation reservation;
    /** Null when the partition spills. */
    private final String noSpillReason;

    AggregateMemory(HashAggregateExec plan, String consumer, TaskContext context) {
        requireNonNull(plan, "plan is null");
        requireNonNull(consumer, "consumer is null");
        this.pool = context.memoryPool();
        this.noSpillReason = noSpillReason(plan, context);
        boolean spillable = noSpillReason == null || plan.mode() == AggregateMode.PARTIAL;
        this.reservation = spillable ? pool.newSpillableReservation(consumer) : pool.newReservation(consumer);
    }

    private static String noSpillReason(HashAggregateExec plan, TaskContext context) {
        if (plan.mode() == AggregateMode.PARTIAL) {
            return "";
        }
        if (plan.groupExprs().isEmpty()) {
            return "; an aggregate without GROUP BY does not spill";
        }
        List<String> holistic = plan.aggregates().stream().filter(a -> !a.decomposable()).map(AggregateExpr::display).toList();
        if (!holistic.isEmpty()) {
            return "; spilling is not supported for " + String.join(", ", holistic)
                    + " (DISTINCT and holistic aggregates have no partial state to spill); raise memory_limit";
        }
        if (!context.setting(EngineSettings.SPILL_ENABLED)) {
            return "; spilling is disabled (spill_enabled = false)";
        }
        return null;
    }

    boolean spills() {
        return noSpillReason == null;
    }

    String consumer() {
        return reservation.consumer();
    }

    long size() {
        return reservation.size();
    }

    long peak() {
        return reservation.peak();
    }

    /** Grows by {@code bytes} if the pool (and, when spilling, the fair share) allows it. */
    boolean tryGrow(long bytes) {
        return reservation.tryGrow(bytes);
    }

    /** Grows by {@code bytes}, or fails saying why this partition did not spill instead. */
    void grow(long bytes) {
        try {
            reservation.grow(bytes);
        } catch (ResourcesExhaustedException e) {
            throw new ResourcesExhaustedException(e.consumer(), e.requestedBytes(), e.poolUsedBytes(), e.poolLimitBytes(), noSpillReason);
        }
    }

    void shrink(long bytes) {
        reservation.shrink(bytes);
    }

    void free() {
        reservation.free();
    }

    /** The error of a spilling partition refused {@code requested} more bytes when spilling would not help, because {@code why}. */
    ResourcesExhaustedException cannotHelp(long requested, String why) {
        return new ResourcesExhaustedException(reservation.consumer(), Math.max(0, requested), pool.used(), pool.limit(),
                "; spilling cannot help: " + why);
    }

    @Override
    public void close() {
        reservation.close();
    }
}
