package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.session.StatementDescription;
import dev.quiver.session.UserSession;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One client connection's session: the user it authenticated as, its {@link UserSession} (its own
 * settings over the server's shared catalog), and its open prepared statements.
 */
final class ClientSession {
    private final String id;
    private final String user;
    private final UserSession session;
    private final Map<String, PreparedStatement> prepared = new ConcurrentHashMap<>();
    private final AtomicLong preparedIds = new AtomicLong();
    private volatile long lastUsedNanos = System.nanoTime();

    ClientSession(String id, String user, UserSession session) {
        this.id = requireNonNull(id, "id is null");
        this.user = requireNonNull(user, "user is null");
        this.session = requireNonNull(session, "session is null");
    }

    String id() {
        return id;
    }

    /** The authenticated user, or {@code ""} on a server without authentication. */
    String user() {
        return user;
    }

    UserSession session() {
        return session;
    }

    void touch() {
        lastUsedNanos = System.nanoTime();
    }

    long idleNanos() {
        return System.nanoTime() - lastUsedNanos;
    }

    /** Keeps a prepared statement under a new handle. */
    PreparedStatement prepare(String sql, StatementDescription description) {
        String handle = id + "/" + preparedIds.incrementAndGet();
        PreparedStatement statement = new PreparedStatement(handle, sql, description);
        prepared.put(handle, statement);
        return statement;
    }

    PreparedStatement prepared(String handle) {
        PreparedStatement statement = prepared.get(handle);
        if (statement == null) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "No prepared statement " + handle + " in this session (closed, or made in another)");
        }
        return statement;
    }

    void closePrepared(String handle) {
        prepared.remove(handle);
    }

    int preparedCount() {
        return prepared.size();
    }
}
