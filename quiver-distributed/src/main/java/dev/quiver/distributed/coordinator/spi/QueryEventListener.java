package dev.quiver.distributed.coordinator.spi;

/**
 * Receives the {@link QueryEvent}s of every distributed query of a session (register it on the
 * session builder). Called on coordinator and transport threads, possibly concurrently for
 * different tasks: an implementation must be thread-safe and must not block. An exception thrown
 * here is ignored, so that an observer cannot break a query.
 */
@FunctionalInterface
public interface QueryEventListener {
    void onEvent(QueryEvent event);
}
