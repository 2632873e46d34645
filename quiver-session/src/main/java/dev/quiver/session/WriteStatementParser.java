package dev.quiver.session;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises {@code CREATE TABLE name (columns)}, {@code CREATE TABLE name AS query},
 * {@code INSERT INTO name [(columns) | BY NAME] query} and {@code COPY (query) | name TO 'path' [(options)]}
 * (for {@link CatalogStatementParser}).
 */
final class WriteStatementParser {
    private static final String CREATE_PREFIX = "(?is)CREATE\\s+(OR\\s+REPLACE\\s+)?(TEMP\\s+|TEMPORARY\\s+)?TABLE\\s+(IF\\s+NOT\\s+EXISTS\\s+)?"
            + CatalogStatementParser.QUALIFIED_NAME;
    /** Groups: 1 OR REPLACE, 2 TEMP, 3 IF NOT EXISTS, 4-5 name, 6 query. */
    private static final Pattern CREATE_AS = Pattern.compile(CREATE_PREFIX + "\\s+AS\\s+(.+)");
    /** Groups: 1 OR REPLACE, 2 TEMP, 3 IF NOT EXISTS, 4-5 name, 6 column list. */
    private static final Pattern CREATE = Pattern.compile(CREATE_PREFIX + "\\s*\\((.*)\\)");
    /** Groups: 1-2 name, 3 the rest (a column list and a query, or a query). */
    private static final Pattern INSERT = Pattern.compile("(?is)INSERT\\s+INTO\\s+" + CatalogStatementParser.QUALIFIED_NAME + "\\s*(.*)");
    private static final Pattern COLUMN_LIST = Pattern.compile("(?s)\\(\\s*(" + StatementParser.NAME + "(?:\\s*,\\s*" + StatementParser.NAME
            + ")*)\\s*\\)\\s*(.*)");
    private static final String PATH_AND_OPTIONS = "\\s*TO\\s+'((?:[^']|'')*)'\\s*(?:(?:WITH\\s*)?\\((.*)\\))?";
    /** Groups: 1 query, 2 path, 3 options. */
    private static final Pattern COPY_QUERY = Pattern.compile("(?is)COPY\\s*\\((.+)\\)" + PATH_AND_OPTIONS);
    /** Groups: 1-2 table, 3 path, 4 options. */
    private static final Pattern COPY_TABLE = Pattern.compile("(?is)COPY\\s+" + CatalogStatementParser.QUALIFIED_NAME + PATH_AND_OPTIONS);
    private static final Pattern BY_NAME = Pattern.compile("(?is)BY\\s+NAME\\s+(.+)");
    private static final Pattern ONE_NAME = Pattern.compile(StatementParser.NAME);
    private static final Pattern COPY_ANY = Pattern.compile("(?is)COPY\\b.*");
    private static final Pattern COPY_FROM = Pattern.compile("(?is)COPY\\s+.*?\\s+FROM\\s+'.*");

    private WriteStatementParser() {}

    static Optional<Statement> parse(String text) {
        Matcher matcher = CREATE_AS.matcher(text);
        if (matcher.matches()) {
            String name = CatalogStatementParser.tableName(CatalogStatementParser.qualifiedName(matcher, 4), "CREATE TABLE");
            return Optional.of(new Statement.CreateTableAs(name, matcher.group(6), mode(matcher)));
        }
        matcher = CREATE.matcher(text);
        if (matcher.matches()) {
            String name = CatalogStatementParser.tableName(CatalogStatementParser.qualifiedName(matcher, 4), "CREATE TABLE");
            return Optional.of(new Statement.CreateTable(name, ExternalTables.columns(matcher.group(6)), mode(matcher)));
        }
        matcher = INSERT.matcher(text);
        if (matcher.matches()) {
            return Optional.of(insert(CatalogStatementParser.tableName(CatalogStatementParser.qualifiedName(matcher, 1), "INSERT"), matcher.group(3)));
        }
        matcher = COPY_QUERY.matcher(text);
        if (matcher.matches()) {
            return Optional.of(copy(matcher.group(1), matcher.group(2), matcher.group(3)));
        }
        matcher = COPY_TABLE.matcher(text);
        if (matcher.matches()) {
            String query = "SELECT * FROM " + CatalogStatementParser.quoted(CatalogStatementParser.qualifiedName(matcher, 1));
            return Optional.of(copy(query, matcher.group(3), matcher.group(4)));
        }
        if (COPY_FROM.matcher(text).matches()) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED,
                    "COPY ... FROM is not supported; load a file with INSERT INTO t SELECT * FROM 'file' or CREATE TABLE t AS SELECT * FROM 'file'");
        }
        if (COPY_ANY.matcher(text).matches()) {
            throw new QuiverException(ErrorCode.SYNTAX_ERROR,
                    "Cannot read this COPY statement; write COPY (query) TO 'path' [(FORMAT PARQUET|CSV, ...)] or COPY table TO 'path' [(...)]");
        }
        return Optional.empty();
    }

    private static Statement.CreateMode mode(Matcher matcher) {
        Statement.CreateMode mode = new Statement.CreateMode(matcher.group(1) != null, matcher.group(3) != null, matcher.group(2) != null);
        if (mode.replace() && mode.ifNotExists()) {
            throw new QuiverException(ErrorCode.SYNTAX_ERROR, "CREATE OR REPLACE TABLE and IF NOT EXISTS cannot be combined");
        }
        return mode;
    }

    /** The rest after {@code INSERT INTO name}: {@code (a, b) query}, {@code BY NAME query}, or a query (which may itself start with a parenthesis). */
    private static Statement.Insert insert(String table, String rest) {
        Matcher byName = BY_NAME.matcher(rest);
        if (byName.matches()) {
            return new Statement.Insert(table, Optional.empty(), byName.group(1), true);
        }
        Matcher columns = COLUMN_LIST.matcher(rest);
        if (columns.matches() && !columns.group(columns.groupCount()).isBlank() && !isQueryStart(columns.group(1))) {
            List<String> names = new ArrayList<>();
            Matcher name = ONE_NAME.matcher(columns.group(1));
            while (name.find()) {
                names.add(StatementParser.identifier(name.group(1)));
            }
            return new Statement.Insert(table, Optional.of(names), columns.group(columns.groupCount()), false);
        }
        if (rest.isBlank()) {
            throw new QuiverException(ErrorCode.SYNTAX_ERROR, "INSERT INTO " + table + " needs a query or VALUES (...) after the table name");
        }
        return new Statement.Insert(table, Optional.empty(), rest, false);
    }

    private static boolean isQueryStart(String text) {
        return text.strip().matches("(?is)(SELECT|WITH|VALUES|FROM)\\b.*");
    }

    private static Statement.CopyTo copy(String query, String path, String options) {
        String target = path.replace("''", "'");
        if (target.isBlank()) {
            throw new QuiverException(ErrorCode.SYNTAX_ERROR, "COPY ... TO needs a path, e.g. TO 'out.parquet'");
        }
        return new Statement.CopyTo(query, target, CopyOptions.parse(Optional.ofNullable(options), target));
    }
}
