package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.function.Supplier;

/**
 * What one query's stage events need (DESIGN §6): the handlers, the query id, each worker's memory
 * limit (asked for only when a handler is about to see an event: it may take a call to every
 * worker). The session's settings the events carry are the planner's
 * ({@code DistributedPlannerSettings.settings()}).
 */
public record StageEvents(StageEventDispatcher dispatcher, String queryId, Supplier<List<Long>> workerMemoryLimits) {
    public StageEvents {
        requireNonNull(dispatcher, "dispatcher is null");
        requireNonNull(queryId, "queryId is null");
        requireNonNull(workerMemoryLimits, "workerMemoryLimits is null");
    }

    /** No handlers: no event fires. */
    public static StageEvents none() {
        return new StageEvents(StageEventDispatcher.none(), "", List::of);
    }

    public static StageEvents of(StageEventDispatcher dispatcher, String queryId, List<Long> workerMemoryLimits) {
        List<Long> limits = List.copyOf(workerMemoryLimits);
        return new StageEvents(dispatcher, queryId, () -> limits);
    }

    public boolean fire() {
        return !dispatcher.isEmpty();
    }
}
