package dev.quiver.sql.planner;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImplConstants;
import org.apache.calcite.sql.parser.babel.Token;

/**
 * DuckDB's ways of naming files as tables, made into tokens Calcite's grammar accepts. Calcite
 * cannot parse a string where a table goes ({@code FROM 'data.parquet'}), nor DuckDB's table
 * function arguments ({@code read_csv('f.csv', delim = ';', columns = {'a': 'INTEGER'})}: named
 * arguments with {@code =}, lists and structs), nor a query that starts with {@code FROM}. So the
 * token stream is rewritten before the parser sees it:
 *
 * <ul>
 *   <li>a string literal in a table position (after {@code FROM}, {@code JOIN}, or a comma of a
 *       FROM clause) becomes a quoted identifier with the same text ({@code "data.parquet"});
 *   <li>a call of {@link #FUNCTIONS} in a table position, from its name to its closing
 *       parenthesis, becomes one quoted identifier whose name is the call's text;
 *   <li>a statement that starts with {@code FROM} gets {@code SELECT *} in front;
 *   <li>a {@code [} that starts a value (after {@code (}, {@code ,}, SELECT, a comparison...) gets
 *       {@code ARRAY} in front: DuckDB's list literal {@code [1, 2]} is Calcite's {@code ARRAY[1, 2]};
 *   <li>{@code UNNEST} outside a table position is a plain name, so that DuckDB's select-list
 *       {@code unnest(l)} parses as a call ({@link UnnestFunction}).
 * </ul>
 *
 * The catalog then resolves such a name by opening the files it describes
 * (dev.quiver.sql.catalog.FileReferences), as DuckDB's replacement scans do for a table name that
 * is a path. Rewriting tokens, not text, keeps every position Calcite reports true: a new token
 * spans the text it stands for.
 */
final class FileReferenceTokens {
    /** The table functions whose calls become table names (DuckDB's names and aliases). */
    static final Set<String> FUNCTIONS = Set.of("read_parquet", "parquet_scan", "read_csv", "read_csv_auto", "read_json", "read_json_auto",
            "read_ndjson", "read_ndjson_auto");

    /** The tokens after which {@code [} starts a list literal, not a subscript. */
    private static final Set<Integer> LIST_START = Set.of(SqlBabelParserImplConstants.LPAREN, SqlBabelParserImplConstants.COMMA,
            SqlBabelParserImplConstants.SELECT, SqlBabelParserImplConstants.LBRACKET, SqlBabelParserImplConstants.EQ,
            SqlBabelParserImplConstants.NE, SqlBabelParserImplConstants.LT, SqlBabelParserImplConstants.GT, SqlBabelParserImplConstants.LE,
            SqlBabelParserImplConstants.GE, SqlBabelParserImplConstants.THEN, SqlBabelParserImplConstants.ELSE, SqlBabelParserImplConstants.WHEN);

    private final Supplier<Token> source;
    private final Deque<Token> pending = new ArrayDeque<>();
    /** Per parenthesis depth, whether the clause being read there is a FROM clause. */
    private final Deque<Boolean> inFrom = new ArrayDeque<>();
    /** Per parenthesis depth, whether a SELECT started there: only then is a FROM a clause (not TRIM(x FROM s), IS DISTINCT FROM). */
    private final Deque<Boolean> inSelect = new ArrayDeque<>();
    private int previousKind = -1;
    /** Whether the previous token was a FROM that starts a FROM clause. */
    private boolean clauseFrom;
    private boolean first = true;

    /** @param source the tokens as Calcite's token manager makes them */
    FileReferenceTokens(Supplier<Token> source) {
        this.source = requireNonNull(source, "source is null");
        inFrom.push(false);
        inSelect.push(false);
    }

    Token next() {
        Token token = pending.isEmpty() ? source.get() : pending.poll();
        if (first) {
            first = false;
            if (token.kind == SqlBabelParserImplConstants.FROM) {
                // DuckDB's FROM-first query: FROM t [WHERE ...] is SELECT * FROM t [WHERE ...]
                pending.push(token);
                Token star = synthetic(SqlBabelParserImplConstants.STAR, "*", token);
                pending.push(star);
                token = synthetic(SqlBabelParserImplConstants.SELECT, "SELECT", token);
            }
        }
        if (token.kind == SqlBabelParserImplConstants.LBRACKET && LIST_START.contains(previousKind)) {
            // DuckDB's list literal [1, 2, 3]: Calcite's ARRAY[1, 2, 3] (after a value, [ is a subscript)
            pending.push(token);
            token = synthetic(SqlBabelParserImplConstants.ARRAY, "ARRAY", token);
        }
        if (token.kind == SqlBabelParserImplConstants.UNNEST && !isTablePosition() && previousKind != SqlBabelParserImplConstants.LATERAL) {
            // DuckDB's select-list unnest(l): a call of UnnestFunction, not the FROM clause's UNNEST table
            token.kind = SqlBabelParserImplConstants.IDENTIFIER;
        }
        if (isTablePosition()) {
            if (token.kind == SqlBabelParserImplConstants.QUOTED_STRING && token.image.startsWith("'")) {
                token = identifier(stringValue(token.image), token, token);
            } else if (token.kind == SqlBabelParserImplConstants.IDENTIFIER && FUNCTIONS.contains(token.image.toLowerCase(Locale.ROOT))) {
                token = call(token);
            }
        }
        track(token);
        return token;
    }

    private boolean isTablePosition() {
        return clauseFrom || previousKind == SqlBabelParserImplConstants.JOIN
                || previousKind == SqlBabelParserImplConstants.COMMA && Boolean.TRUE.equals(inFrom.peek());
    }

    /** {@code name(...)} as one identifier spanning it, when a parenthesis follows; else {@code name} as it is. */
    private Token call(Token name) {
        Token open = source.get();
        if (open.kind != SqlBabelParserImplConstants.LPAREN) {
            pending.add(open);
            return name;
        }
        StringBuilder text = new StringBuilder(name.image).append('(');
        Token previous = open;
        int depth = 1;
        while (depth > 0) {
            Token token = source.get();
            if (token.kind == SqlBabelParserImplConstants.EOF) {
                // unbalanced: let the parser report the missing parenthesis where it is
                pending.add(open);
                pending.add(token);
                return name;
            }
            if (token.kind == SqlBabelParserImplConstants.LPAREN) {
                depth++;
            } else if (token.kind == SqlBabelParserImplConstants.RPAREN) {
                depth--;
            }
            boolean spaced = token.beginLine != previous.endLine || token.beginColumn > previous.endColumn + 1;
            if (spaced && depth > 0) {
                text.append(' ');
            }
            text.append(token.image);
            previous = token;
        }
        return identifier(text.toString(), name, previous);
    }

    private void track(Token token) {
        clauseFrom = token.kind == SqlBabelParserImplConstants.FROM && Boolean.TRUE.equals(inSelect.peek())
                && previousKind != SqlBabelParserImplConstants.DISTINCT;
        switch (token.kind) {
            case SqlBabelParserImplConstants.LPAREN -> {
                inFrom.push(false);
                inSelect.push(false);
            }
            case SqlBabelParserImplConstants.RPAREN -> {
                if (inFrom.size() > 1) {
                    inFrom.pop();
                    inSelect.pop();
                }
            }
            case SqlBabelParserImplConstants.FROM -> setInFrom(clauseFrom);
            case SqlBabelParserImplConstants.SELECT -> {
                setInFrom(false);
                inSelect.pop();
                inSelect.push(true);
            }
            case SqlBabelParserImplConstants.WHERE, SqlBabelParserImplConstants.GROUP,
                    SqlBabelParserImplConstants.HAVING, SqlBabelParserImplConstants.ORDER, SqlBabelParserImplConstants.LIMIT,
                    SqlBabelParserImplConstants.OFFSET, SqlBabelParserImplConstants.FETCH, SqlBabelParserImplConstants.WINDOW,
                    SqlBabelParserImplConstants.QUALIFY, SqlBabelParserImplConstants.UNION, SqlBabelParserImplConstants.EXCEPT,
                    SqlBabelParserImplConstants.INTERSECT, SqlBabelParserImplConstants.VALUES -> setInFrom(false);
            default -> { }
        }
        previousKind = token.kind;
    }

    private void setInFrom(boolean value) {
        inFrom.pop();
        inFrom.push(value);
    }

    /** A quoted identifier naming {@code name}, spanning {@code from} to {@code to}. */
    private static Token identifier(String name, Token from, Token to) {
        // JavaCC's newToken(int) leaves the kind unset
        Token token = new Token();
        token.kind = SqlBabelParserImplConstants.QUOTED_IDENTIFIER;
        token.image = "\"" + name.replace("\"", "\"\"") + "\"";
        token.beginLine = from.beginLine;
        token.beginColumn = from.beginColumn;
        token.endLine = to.endLine;
        token.endColumn = to.endColumn;
        token.specialToken = from.specialToken;
        return token;
    }

    private static Token synthetic(int kind, String image, Token at) {
        Token token = new Token();
        token.kind = kind;
        token.image = image;
        token.beginLine = at.beginLine;
        token.beginColumn = at.beginColumn;
        token.endLine = at.beginLine;
        token.endColumn = at.beginColumn;
        return token;
    }

    /** The value of a {@code '...'} literal: without the quotes, doubled quotes single. */
    private static String stringValue(String image) {
        return image.substring(1, image.length() - 1).replace("''", "'");
    }
}
