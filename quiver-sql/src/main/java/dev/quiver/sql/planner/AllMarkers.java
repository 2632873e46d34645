package dev.quiver.sql.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.QuiverException.SqlPosition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * DuckDB's {@code GROUP BY ALL} and {@code ORDER BY ALL}, which Calcite's parser does not know,
 * marked in the text before parsing: the word {@code ALL} becomes {@code 1} and two blanks (so that
 * every position in the text stays where it was), and the positions of those literals are
 * remembered, so that {@link ByAll} finds them in the parsed tree and expands them. A standard
 * {@code GROUP BY ALL a, b} (ALL as a set quantifier) is left alone: the word is marked only where
 * the clause ends after it.
 */
final class AllMarkers {
    private static final Set<String> AFTER_GROUP_BY_ALL = Set.of("HAVING", "ORDER", "LIMIT", "OFFSET", "FETCH", "WINDOW",
            "QUALIFY", "UNION", "INTERSECT", "EXCEPT", "MINUS");
    private static final Set<String> AFTER_ORDER_BY_ALL = Set.of("ASC", "DESC", "NULLS", "LIMIT", "OFFSET", "FETCH");

    /** One marked {@code ALL}: which clause, and where (1-based line and column of the word). */
    record Marker(Clause clause, int line, int column) {
        Marker {
            requireNonNull(clause, "clause is null");
        }

        boolean isAt(SqlParserPos pos) {
            return pos.getLineNum() == line && pos.getColumnNum() == column;
        }

        SqlParserPos pos() {
            return new SqlParserPos(line, column, line, column + 2);
        }

        QuiverException misplaced() {
            return new QuiverException(ErrorCode.SYNTAX_ERROR, String.format("Syntax error at line %d, column %d: %s ALL is not allowed here",
                    line, column, clause.sql), new SqlPosition(line, column), null);
        }
    }

    enum Clause {
        GROUP_BY("GROUP BY"), ORDER_BY("ORDER BY");

        final String sql;

        Clause(String sql) {
            this.sql = sql;
        }
    }

    /** The text with each DuckDB {@code BY ALL} replaced, and where they were. */
    record Marked(String sql, List<Marker> markers) {
        Marked {
            requireNonNull(sql, "sql is null");
            markers = List.copyOf(markers);
        }
    }

    private AllMarkers() {}

    static Marked mark(String sql) {
        List<Token> words = words(sql);
        StringBuilder text = new StringBuilder(sql);
        List<Marker> markers = new ArrayList<>();
        for (int i = 2; i < words.size(); i++) {
            Token all = words.get(i);
            if (!all.is("ALL") || !words.get(i - 1).is("BY") || !(words.get(i - 2).is("GROUP") || words.get(i - 2).is("ORDER"))) {
                continue;
            }
            Clause clause = words.get(i - 2).is("GROUP") ? Clause.GROUP_BY : Clause.ORDER_BY;
            Token next = i + 1 < words.size() ? words.get(i + 1) : null;
            boolean ends = next == null || next.text.equals(")") || next.text.equals(";")
                    || (clause == Clause.GROUP_BY ? AFTER_GROUP_BY_ALL : AFTER_ORDER_BY_ALL).contains(next.upper());
            if (!ends) {
                continue;
            }
            text.replace(all.offset, all.offset + 3, "1  ");
            markers.add(new Marker(clause, all.line, all.column));
        }
        return new Marked(text.toString(), markers);
    }

    /** A word or a single punctuation character of the text, outside quotes and comments. */
    private record Token(String text, int offset, int line, int column) {
        boolean is(String word) {
            return text.equalsIgnoreCase(word);
        }

        String upper() {
            return text.toUpperCase(Locale.ROOT);
        }
    }

    private static List<Token> words(String sql) {
        List<Token> tokens = new ArrayList<>();
        int line = 1;
        int lineStart = 0;
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\n') {
                line++;
                lineStart = i + 1;
                i++;
            } else if (c == '\'' || c == '"') {
                int end = i + 1;
                while (end < sql.length()) {
                    if (sql.charAt(end) == c && end + 1 < sql.length() && sql.charAt(end + 1) == c) {
                        end += 2; // a doubled quote inside the quotes
                    } else if (sql.charAt(end) == c) {
                        break;
                    } else {
                        end++;
                    }
                }
                for (int j = i; j < Math.min(end, sql.length()); j++) {
                    if (sql.charAt(j) == '\n') {
                        line++;
                        lineStart = j + 1;
                    }
                }
                tokens.add(new Token(c == '"' ? "\"" : "'", i, line, i - lineStart + 1));
                i = end + 1;
            } else if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
                while (i < sql.length() && sql.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                int stop = end < 0 ? sql.length() : end + 2;
                for (int j = i; j < stop; j++) {
                    if (sql.charAt(j) == '\n') {
                        line++;
                        lineStart = j + 1;
                    }
                }
                i = stop;
            } else if (Character.isLetterOrDigit(c) || c == '_') {
                int start = i;
                while (i < sql.length() && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
                    i++;
                }
                tokens.add(new Token(sql.substring(start, i), start, line, start - lineStart + 1));
            } else {
                if (!Character.isWhitespace(c)) {
                    tokens.add(new Token(String.valueOf(c), i, line, i - lineStart + 1));
                }
                i++;
            }
        }
        return tokens;
    }
}
