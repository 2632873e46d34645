package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.session.QuerySession;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The server's client sessions by id (the {@value SessionMiddleware#COOKIE} cookie a client sends
 * back). A session idle longer than the idle timeout is forgotten when the next one opens; a client
 * coming back with its id then gets a new session.
 */
final class ClientSessions {
    private final QuerySession shared;
    private final Duration idleTimeout;
    private final Map<String, ClientSession> sessions = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();

    ClientSessions(QuerySession shared, Duration idleTimeout) {
        this.shared = requireNonNull(shared, "shared is null");
        this.idleTimeout = requireNonNull(idleTimeout, "idleTimeout is null");
    }

    ClientSession open(String user) {
        forgetIdle();
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        ClientSession session = new ClientSession(HexFormat.of().formatHex(bytes), user, shared.openUserSession());
        sessions.put(session.id(), session);
        return session;
    }

    Optional<ClientSession> find(String id) {
        return Optional.ofNullable(sessions.get(id));
    }

    void close(String id) {
        sessions.remove(id);
    }

    int size() {
        return sessions.size();
    }

    private void forgetIdle() {
        long limit = idleTimeout.toNanos();
        sessions.values().removeIf(session -> session.idleNanos() > limit);
    }
}
