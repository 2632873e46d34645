package dev.quiver.session;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits scripts into statements and recognises the statements Calcite does not parse
 * ({@code EXPLAIN}, {@code SET}, {@code SHOW SETTINGS}, {@code CREATE VIEW}, {@code DROP VIEW}, {@code CREATE EXTERNAL TABLE},
 * {@code DROP TABLE}, and those of {@link CatalogStatementParser}); everything else is a
 * query for the SQL planner.
 *
 * <p>Comments are blanked out rather than removed, so that line and column numbers of errors in
 * a single statement still point into the text the user wrote.
 */
final class StatementParser {
    static final String NAME = "([A-Za-z_][A-Za-z0-9_$]*|\"(?:[^\"]|\"\")+\")";
    private static final Pattern SHOW_SETTINGS = Pattern.compile("(?is)SHOW\\s+SETTINGS");
    private static final Pattern SET = Pattern.compile("(?is)SET\\s+([A-Za-z_][A-Za-z0-9_.]*)\\s*(?:=|\\s+TO\\s+)\\s*(.+)");
    private static final Pattern CREATE_VIEW = Pattern.compile("(?is)CREATE\\s+(OR\\s+REPLACE\\s+)?VIEW\\s+" + NAME
            + "(?:\\s*\\(([^()]*)\\))?\\s+AS\\s+(.+)");
    private static final Pattern DROP_VIEW = Pattern.compile("(?is)DROP\\s+VIEW\\s+(IF\\s+EXISTS\\s+)?" + NAME);
    private static final Pattern FIRST_WORD = Pattern.compile("(?s)\\s*([A-Za-z]+).*");
    private static final Set<String> UNSUPPORTED = Set.of("INSERT", "UPDATE", "DELETE", "MERGE", "CREATE", "DROP", "ALTER", "TRUNCATE");

    private StatementParser() {}

    /** {@code CREATE VIEW v (a, b) AS q} names the columns of q: the view is {@code SELECT * FROM (q) AS v_columns(a, b)}. */
    private static String withColumnNames(String query, String columns) {
        return "SELECT * FROM (" + query + "\n) AS view_columns(" + columns.strip() + ")";
    }

    /**
     * The statements of {@code script}: comments ({@code --} to the end of the line and
     * {@code /* ... *}{@code /}) blanked, split on semicolons outside quotes, empty statements
     * dropped.
     */
    static List<String> split(String script) {
        return pieces(script).stream().map(Piece::text).toList();
    }

    /** One statement of a script and the offset in the script where its text starts. */
    record Piece(String text, int offset) {}

    /** The statements of {@code script} as {@link #split} finds them, each with where it starts. */
    static List<Piece> pieces(String script) {
        String text = blankComments(script);
        List<Piece> statements = new ArrayList<>();
        int start = 0;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == ';') {
                addIfNotBlank(statements, text, start, i);
                start = i + 1;
            }
        }
        addIfNotBlank(statements, text, start, text.length());
        return statements;
    }

    /** Whether the last character of {@code script} outside comments and blanks is a {@code ;} outside quotes. */
    static boolean endsWithTerminator(String script) {
        String text = blankComments(script);
        char quote = 0;
        int lastSignificant = -1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
                lastSignificant = i;
            } else if (c == '\'' || c == '"') {
                quote = c;
                lastSignificant = i;
            } else if (!Character.isWhitespace(c)) {
                lastSignificant = i;
            }
        }
        return quote == 0 && lastSignificant >= 0 && text.charAt(lastSignificant) == ';';
    }

    /** Recognises one statement (comments already blanked or absent). */
    static Statement parse(String sql) {
        String text = blankComments(sql).strip();
        while (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1).strip();
        }
        if (text.isEmpty()) {
            throw new QuiverException(ErrorCode.SYNTAX_ERROR, "Empty statement: expected a query such as SELECT 1");
        }
        Matcher matcher = ExplainStatements.EXPLAIN.matcher(text);
        if (matcher.matches()) {
            return ExplainStatements.explain(matcher);
        }
        if (SHOW_SETTINGS.matcher(text).matches()) {
            return new Statement.ShowSettings();
        }
        matcher = SET.matcher(text);
        if (matcher.matches()) {
            return new Statement.Set(matcher.group(1), unquote(matcher.group(2).strip()));
        }
        matcher = CREATE_VIEW.matcher(text);
        if (matcher.matches()) {
            String name = identifier(matcher.group(2));
            String query = matcher.group(3) == null ? matcher.group(4) : withColumnNames(matcher.group(4), matcher.group(3));
            return new Statement.CreateView(name, query, matcher.group(1) != null);
        }
        matcher = DROP_VIEW.matcher(text);
        if (matcher.matches()) {
            return new Statement.DropView(identifier(matcher.group(2)), matcher.group(1) != null);
        }
        matcher = ExternalTables.CREATE.matcher(text);
        if (matcher.matches()) {
            return ExternalTables.create(matcher);
        }
        matcher = ExternalTables.DROP.matcher(text);
        if (matcher.matches()) {
            return new Statement.DropTable(identifier(matcher.group(2)), matcher.group(1) != null);
        }
        Optional<Statement> catalogStatement = CatalogStatementParser.parse(text);
        if (catalogStatement.isPresent()) {
            return catalogStatement.get();
        }
        matcher = FIRST_WORD.matcher(text);
        if (matcher.matches() && UNSUPPORTED.contains(matcher.group(1).toUpperCase(Locale.ROOT))) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, matcher.group(1).toUpperCase(Locale.ROOT)
                    + " statements are not supported; Quiver runs queries (SELECT, WITH, VALUES), EXPLAIN, SET, SHOW, DESCRIBE, CREATE [EXTERNAL] TABLE,"
                    + " CREATE TABLE AS, INSERT INTO, COPY TO, CREATE VIEW, DROP TABLE and DROP VIEW");
        }
        return new Statement.Query(text);
    }

    private static void addIfNotBlank(List<Piece> statements, String text, int start, int end) {
        String statement = text.substring(start, end);
        if (!statement.isBlank()) {
            int leading = statement.length() - statement.stripLeading().length();
            statements.add(new Piece(statement.strip(), start + leading));
        }
    }

    /** Replaces comments outside quotes with spaces, keeping line breaks. */
    static String blankComments(String sql) {
        StringBuilder out = new StringBuilder(sql);
        char quote = 0;
        for (int i = 0; i < out.length(); i++) {
            char c = out.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '-' && i + 1 < out.length() && out.charAt(i + 1) == '-') {
                while (i < out.length() && out.charAt(i) != '\n') {
                    out.setCharAt(i++, ' ');
                }
            } else if (c == '/' && i + 1 < out.length() && out.charAt(i + 1) == '*') {
                int end = out.indexOf("*/", i + 2);
                int stop = end < 0 ? out.length() : end + 2;
                for (; i < stop; i++) {
                    if (out.charAt(i) != '\n') {
                        out.setCharAt(i, ' ');
                    }
                }
                i--;
            }
        }
        return out.toString();
    }

    private static String unquote(String value) {
        if (value.length() >= 2 && (value.startsWith("'") && value.endsWith("'") || value.startsWith("\"") && value.endsWith("\""))) {
            return value.substring(1, value.length() - 1);
        }
        return value;
    }

    static String identifier(String name) {
        return name.startsWith("\"") ? name.substring(1, name.length() - 1).replace("\"\"", "\"") : name;
    }
}
