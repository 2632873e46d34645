package dev.quiver.session;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code EXPLAIN [ANALYZE] [(option, ...)] query}, the options as PostgreSQL writes them:
 * {@code ANALYZE} and {@code FORMAT TEXT|DOT}, e.g. {@code EXPLAIN (FORMAT DOT) SELECT ...} or
 * {@code EXPLAIN (ANALYZE, FORMAT DOT) SELECT ...}. A parenthesis that holds no such options is
 * the start of the query ({@code EXPLAIN (SELECT 1)}).
 */
final class ExplainStatements {
    static final Pattern EXPLAIN = Pattern.compile("(?is)EXPLAIN(?=[\\s(])(\\s+ANALYZE(?=[\\s(]))?(?:\\s*\\(([^()]*)\\))?\\s*(.+)");
    private static final Pattern OPTION = Pattern.compile("(?i)\\s*(ANALYZE|FORMAT\\s+([A-Za-z_]+))\\s*");

    private ExplainStatements() {}

    /** The statement {@code matcher} (of {@link #EXPLAIN}, matched) holds. */
    static Statement.Explain explain(Matcher matcher) {
        boolean analyze = matcher.group(1) != null;
        String options = matcher.group(2);
        String query = matcher.group(3);
        if (options == null) {
            return new Statement.Explain(query, analyze, Optional.empty());
        }
        Optional<SessionSettings.ExplainFormat> format = Optional.empty();
        String[] parts = options.split(",", -1);
        for (String part : parts) {
            Matcher option = OPTION.matcher(part);
            if (!option.matches()) {
                // not options: the query itself starts with a parenthesis
                return new Statement.Explain(matcher.group(0).substring(matcher.start(2) - 1), matcher.group(1) != null, Optional.empty());
            }
            if (option.group(2) == null) {
                analyze = true;
            } else {
                format = Optional.of(format(option.group(2)));
            }
        }
        return new Statement.Explain(query, analyze, format);
    }

    private static SessionSettings.ExplainFormat format(String name) {
        try {
            return SessionSettings.ExplainFormat.valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "EXPLAIN format '" + name + "' is not one of TEXT, DOT");
        }
    }
}
