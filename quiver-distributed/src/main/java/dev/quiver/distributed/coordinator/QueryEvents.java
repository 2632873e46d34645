package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.coordinator.spi.QueryEventListener;
import java.util.ArrayList;
import java.util.List;

/** The events of one query: recorded in order, and passed to the session's listeners as they happen. */
final class QueryEvents {
    private final List<QueryEventListener> listeners;
    private final List<QueryEvent> recorded = new ArrayList<>();

    QueryEvents(List<QueryEventListener> listeners) {
        this.listeners = List.copyOf(requireNonNull(listeners, "listeners is null"));
    }

    /** Records and publishes one event. Holding the lock while the listeners run keeps every listener's order equal to the record's. */
    synchronized void emit(QueryEvent event) {
        recorded.add(event);
        for (QueryEventListener listener : listeners) {
            try {
                listener.onEvent(event);
            } catch (RuntimeException ignored) {
                // an observer must not be able to break the query (see QueryEventListener)
            }
        }
    }

    synchronized List<QueryEvent> snapshot() {
        return List.copyOf(recorded);
    }
}
