package dev.quiver.engine.metrics;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The phases of planning one query and how long each took (parse, validate, convert, optimize,
 * physical, distributed), in the order they ran. {@code EXPLAIN ANALYZE} shows them
 * ({@link TimeBreakdown}). Used by the one thread that plans the query; not thread-safe.
 */
public final class PlanningTimer {
    private final List<Phase> phases = new ArrayList<>();

    /** One phase of planning and its duration. */
    public record Phase(String name, long nanos) {
        public Phase {
            requireNonNull(name, "name is null");
            if (nanos < 0) {
                throw new IllegalArgumentException("nanos is negative: " + nanos);
            }
        }
    }

    /** Runs {@code phase} and records its duration under {@code name}, also when it throws. */
    public <T> T time(String name, Supplier<T> phase) {
        requireNonNull(name, "name is null");
        long start = System.nanoTime();
        try {
            return phase.get();
        } finally {
            add(name, System.nanoTime() - start);
        }
    }

    /** Records a phase that took {@code nanos}; a name recorded again adds to the earlier entry. */
    public void add(String name, long nanos) {
        for (int i = 0; i < phases.size(); i++) {
            if (phases.get(i).name().equals(name)) {
                phases.set(i, new Phase(name, phases.get(i).nanos() + nanos));
                return;
            }
        }
        phases.add(new Phase(name, nanos));
    }

    public List<Phase> phases() {
        return List.copyOf(phases);
    }

    public long totalNanos() {
        return phases.stream().mapToLong(Phase::nanos).sum();
    }
}
