package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.session.QueryHandle;
import java.util.List;
import java.util.Optional;

/**
 * One statement the server runs for a client, from the moment it asks to run until its handle is
 * closed: what {@code SHOW QUERIES} lists and {@code KILL QUERY} ends.
 */
final class ServerQuery {
    /** Where a query is: waiting for admission, or running (its result streaming). */
    enum State {
        QUEUED,
        RUNNING
    }

    private final String id;
    private final ClientSession client;
    private final String sql;
    private final long startNanos = System.nanoTime();
    private final Runnable onCancel;
    private State state = State.QUEUED;
    private MemoryPool pool;
    private QueryHandle handle;
    private boolean cancelled;

    /** @param onCancel wakes whatever the query may be waiting in (admission) */
    ServerQuery(String id, ClientSession client, String sql, Runnable onCancel) {
        this.id = requireNonNull(id, "id is null");
        this.client = requireNonNull(client, "client is null");
        this.sql = requireNonNull(sql, "sql is null");
        this.onCancel = requireNonNull(onCancel, "onCancel is null");
    }

    String id() {
        return id;
    }

    ClientSession client() {
        return client;
    }

    String sql() {
        return sql;
    }

    /** Admitted: it reserves from {@code grantedPool}. */
    synchronized void admitted(MemoryPool grantedPool) {
        this.pool = requireNonNull(grantedPool, "grantedPool is null");
        this.state = State.RUNNING;
    }

    /** Started: a cancel from now on reaches the handle (and one that came before, at once). */
    void started(QueryHandle started) {
        boolean cancelNow;
        synchronized (this) {
            this.handle = requireNonNull(started, "started is null");
            cancelNow = cancelled;
        }
        if (cancelNow) {
            started.cancel();
        }
    }

    /** Ends the query: a queued one leaves the queue, a running one fails with QUERY_CANCELLED. */
    void cancel() {
        QueryHandle running;
        synchronized (this) {
            cancelled = true;
            running = handle;
        }
        if (running != null) {
            running.cancel();
        }
        onCancel.run();
    }

    synchronized boolean isCancelled() {
        return cancelled;
    }

    /** The row {@code SHOW QUERIES} shows (see {@link ServerStatements#QUERIES}). */
    synchronized List<Object> row() {
        Optional<MemoryPool> memory = Optional.ofNullable(pool);
        String text = sql.strip().replaceAll("\\s+", " ");
        return List.of(id, client.user(), state.name(), (System.nanoTime() - startNanos) / 1_000_000,
                memory.map(MemoryPool::used).orElse(0L), memory.map(MemoryPool::peak).orElse(0L), client.id(),
                text.length() > 200 ? text.substring(0, 197) + "..." : text);
    }
}
