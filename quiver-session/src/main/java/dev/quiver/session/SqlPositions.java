package dev.quiver.session;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.QuiverException.SqlPosition;
import java.util.Optional;

/**
 * Error positions as the user sees them. The SQL planner counts lines and columns in the text it
 * was given — a statement of a script, the query of an {@code EXPLAIN} or {@code CREATE VIEW} —
 * and this moves them (in the position and in the message) to where that text begins in what the
 * user wrote, so that a script's third statement reports its own line, not line 1.
 */
final class SqlPositions {
    private SqlPositions() {}

    /** {@code error}, whose position counts in a text starting at {@code offset} of {@code outer}, with the position in {@code outer}. */
    static QuiverException relocate(QuiverException error, String outer, int offset) {
        Optional<SqlPosition> position = error.position();
        if (position.isEmpty() || offset <= 0) {
            return error;
        }
        SqlPosition origin = at(outer, offset);
        SqlPosition inner = position.get();
        SqlPosition moved = new SqlPosition(origin.line() + inner.line() - 1,
                inner.line() == 1 ? origin.column() + inner.column() - 1 : inner.column());
        if (moved.equals(inner)) {
            return error;
        }
        String message = error.getMessage().replace(inner.toString(), moved.toString());
        return new QuiverException(error.errorCode(), message, moved, error);
    }

    /** Where the SQL text the planner is given for {@code statement} (parsed from {@code sql}) starts in {@code sql}; 0 if it has none. */
    static int offsetOf(String sql, Statement statement) {
        String planned = statement instanceof Statement.Query query ? query.sql()
                : statement instanceof Statement.Explain explain ? explain.query()
                : statement instanceof Statement.CreateView create ? create.query()
                : statement instanceof Statement.DescribeQuery describe ? describe.query()
                : statement instanceof Statement.CreateTableAs create ? create.query()
                : statement instanceof Statement.Insert insert ? insert.query()
                : statement instanceof Statement.CopyTo copy ? copy.query()
                : null;
        return planned == null ? 0 : offsetOf(sql, planned);
    }

    /**
     * Where {@code part} of statement {@code sql} starts: its suffix once comments, trailing blanks
     * and {@code ;} are dropped, else (the query of a {@code COPY (query) TO ...}) where it occurs; 0
     * when it does not occur as written.
     */
    static int offsetOf(String sql, String part) {
        String text = StatementParser.blankComments(sql).stripTrailing();
        while (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1).stripTrailing();
        }
        if (text.endsWith(part)) {
            return text.length() - part.length();
        }
        return Math.max(0, text.indexOf(part));
    }

    /** The 1-based line and column of {@code offset} in {@code text}. */
    static SqlPosition at(String text, int offset) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new SqlPosition(line, offset - lineStart + 1);
    }
}
