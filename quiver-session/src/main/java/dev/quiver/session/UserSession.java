package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.memory.MemoryPool;

/**
 * One user's session over a shared {@link QuerySession} ({@link QuerySession#openUserSession}), as
 * a server keeps one per connection: its own settings, which {@code SET} changes for its later
 * statements only, over the shared session's tables, views, catalog directory, workers and threads.
 *
 * <p>{@code memory_limit} is the shared session's pool and cannot be SET here; a caller that admits
 * queries against that pool runs each one in a pool of its own ({@link #execute(String, MemoryPool)}).
 * Thread-safe: statements of one user session may run concurrently.
 */
public final class UserSession {
    private final QuerySession shared;
    private Settings settings;

    UserSession(QuerySession shared) {
        this.shared = requireNonNull(shared, "shared is null");
        this.settings = shared.settings();
    }

    /** The settings this session's statements run with now. */
    public synchronized Settings settings() {
        return settings;
    }

    /** Starts one statement, its query reserving from the shared session's pool; the caller reads and closes the handle. */
    public QueryHandle execute(String sql) {
        return shared.execute(sql, new Scope(shared.memoryPool()));
    }

    /** Starts one statement whose query reserves from {@code pool} (a share of the shared pool a server granted it). */
    public QueryHandle execute(String sql, MemoryPool pool) {
        return shared.execute(sql, new Scope(requireNonNull(pool, "pool is null")));
    }

    /**
     * What {@code sql} returns and the types of its {@code ?} parameters, without running it (a
     * prepared statement's description): nothing it would change changes.
     */
    public StatementDescription describe(String sql) {
        return shared.describe(sql, new Scope(shared.memoryPool()));
    }

    private synchronized void set(String name, String value) {
        Settings next = settings.with(name, value);
        if (next.get(SessionSettings.MEMORY_LIMIT).longValue() != settings.get(SessionSettings.MEMORY_LIMIT).longValue()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "memory_limit is the server's memory pool, shared by every session;"
                    + " it is set when the server starts (--memory-limit), not by SET");
        }
        settings = next;
    }

    /** This session's settings, and the pool one statement reserves from. */
    private final class Scope implements StatementScope {
        private final MemoryPool pool;

        Scope(MemoryPool pool) {
            this.pool = pool;
        }

        @Override
        public Settings settings() {
            return UserSession.this.settings();
        }

        @Override
        public void set(String name, String value) {
            UserSession.this.set(name, value);
        }

        @Override
        public MemoryPool pool() {
            return pool;
        }
    }
}
