package dev.quiver.server;

import dev.quiver.engine.types.QuiverTypes;
import dev.quiver.session.StatementDescription;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The statements the server answers itself, about the queries it runs (the session below knows
 * nothing of servers): {@code SHOW QUERIES}, and {@code KILL QUERY id} or {@code CANCEL QUERY id},
 * the id as SHOW QUERIES shows it, quoted or not.
 */
final class ServerStatements {
    /** The columns of SHOW QUERIES. */
    static final Schema QUERIES = new Schema(List.of(
            QuiverTypes.field("query_id", QuiverTypes.UTF8, false),
            QuiverTypes.field("user", QuiverTypes.UTF8, false),
            QuiverTypes.field("state", QuiverTypes.UTF8, false),
            QuiverTypes.field("elapsed_ms", QuiverTypes.INT64, false),
            QuiverTypes.field("memory_bytes", QuiverTypes.INT64, false),
            QuiverTypes.field("peak_memory_bytes", QuiverTypes.INT64, false),
            QuiverTypes.field("session", QuiverTypes.UTF8, false),
            QuiverTypes.field("query", QuiverTypes.UTF8, false)));

    private static final Pattern SHOW_QUERIES = Pattern.compile("(?is)\\s*SHOW\\s+QUERIES\\s*;?\\s*");
    private static final Pattern KILL_QUERY = Pattern.compile("(?is)\\s*(?:KILL|CANCEL)\\s+QUERY\\s+'?([A-Za-z0-9_]+)'?\\s*;?\\s*");

    /** A server statement. */
    sealed interface Statement {}

    /** {@code SHOW QUERIES}. */
    record ShowQueries() implements Statement {}

    /** {@code KILL QUERY id}. */
    record KillQuery(String queryId) implements Statement {}

    private ServerStatements() {}

    static Optional<Statement> parse(String sql) {
        if (SHOW_QUERIES.matcher(sql).matches()) {
            return Optional.of(new ShowQueries());
        }
        Matcher kill = KILL_QUERY.matcher(sql);
        return kill.matches() ? Optional.of(new KillQuery(kill.group(1))) : Optional.empty();
    }

    static StatementDescription describe(Statement statement) {
        return statement instanceof ShowQueries
                ? new StatementDescription(StatementDescription.Result.ROWS, QUERIES, false, List.of())
                : new StatementDescription(StatementDescription.Result.UPDATE, new Schema(List.of()), false, List.of());
    }
}
