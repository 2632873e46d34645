package dev.quiver.server;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The queries the server runs or queues now, by id ({@code query_12}). */
final class RunningQueries {
    private final Map<String, ServerQuery> queries = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    ServerQuery register(ClientSession client, String sql, Runnable onCancel) {
        ServerQuery query = new ServerQuery("query_" + ids.incrementAndGet(), client, sql, onCancel);
        queries.put(query.id(), query);
        return query;
    }

    void remove(ServerQuery query) {
        queries.remove(query.id());
    }

    int size() {
        return queries.size();
    }

    /** Their rows for SHOW QUERIES, oldest first. */
    List<List<Object>> rows() {
        List<ServerQuery> sorted = new ArrayList<>(queries.values());
        sorted.sort(Comparator.comparingLong(query -> Long.parseLong(query.id().substring("query_".length()))));
        return sorted.stream().map(ServerQuery::row).toList();
    }

    /**
     * Cancels query {@code id} for {@code user}, who must have started it (any user may on a
     * server without authentication, where every user is {@code ""}).
     */
    void kill(String id, String user) {
        ServerQuery query = queries.get(id);
        if (query == null || !(user.isEmpty() || query.client().user().equals(user))) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "No query " + id + " of yours runs now (SHOW QUERIES lists them)");
        }
        query.cancel();
    }

    /** Cancels every query of a client session (it closed). */
    void cancelSession(String sessionId) {
        queries.values().stream().filter(query -> query.client().id().equals(sessionId)).forEach(ServerQuery::cancel);
    }
}
