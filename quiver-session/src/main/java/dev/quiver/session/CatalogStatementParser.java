package dev.quiver.session;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.sql.catalog.InformationSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises the statements about tables that Calcite does not parse: {@code SHOW TABLES},
 * {@code DESCRIBE} / {@code SHOW COLUMNS}, and (see {@link WriteStatementParser}) the statements
 * that write: {@code CREATE TABLE}, {@code INSERT}, {@code COPY}. Each pattern matches a whole
 * statement whose comments are blanked and whose trailing {@code ;} is gone.
 */
final class CatalogStatementParser {
    /** A name, or a schema-qualified one ({@code information_schema.tables}). */
    static final String QUALIFIED_NAME = StatementParser.NAME + "(?:\\s*\\.\\s*" + StatementParser.NAME + ")?";
    private static final Pattern SHOW_TABLES = Pattern.compile("(?is)SHOW\\s+(?:ALL\\s+)?TABLES");
    /** Groups: 1 and 2, the parts of the name. */
    private static final Pattern DESCRIBE_TABLE = Pattern.compile("(?is)(?:DESCRIBE|DESC|SHOW\\s+COLUMNS\\s+(?:FROM|IN)|SHOW)\\s+(?:TABLE\\s+)?"
            + QUALIFIED_NAME);
    private static final Pattern DESCRIBE_QUERY = Pattern.compile("(?is)(?:DESCRIBE|DESC)\\s+(.+)");

    private CatalogStatementParser() {}

    /** The statement {@code text} is, if it is one of these. */
    static Optional<Statement> parse(String text) {
        if (SHOW_TABLES.matcher(text).matches()) {
            return Optional.of(new Statement.ShowTables());
        }
        Matcher matcher = DESCRIBE_TABLE.matcher(text);
        if (matcher.matches()) {
            return Optional.of(new Statement.DescribeTable(qualifiedName(matcher, 1)));
        }
        matcher = DESCRIBE_QUERY.matcher(text);
        if (matcher.matches()) {
            return Optional.of(new Statement.DescribeQuery(matcher.group(1)));
        }
        return WriteStatementParser.parse(text);
    }

    /** The parts of a {@link #QUALIFIED_NAME} whose first group is {@code first}, unquoted. */
    static List<String> qualifiedName(Matcher matcher, int first) {
        List<String> parts = new ArrayList<>();
        parts.add(StatementParser.identifier(matcher.group(first)));
        if (matcher.group(first + 1) != null) {
            parts.add(StatementParser.identifier(matcher.group(first + 1)));
        }
        return parts;
    }

    /** {@code name} quoted for SQL text: {@code "a"."b"}. */
    static String quoted(List<String> name) {
        return String.join(".", name.stream().map(part -> "\"" + part.replace("\"", "\"\"") + "\"").toList());
    }

    /** A one-part table name; a qualified one is NOT_SUPPORTED naming what to write instead. */
    static String tableName(List<String> name, String statement) {
        if (name.size() == 1) {
            return name.get(0);
        }
        if (name.get(0).equalsIgnoreCase(InformationSchema.SCHEMA)) {
            return name.get(1);
        }
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, statement + " writes tables of schema main only, not " + String.join(".", name));
    }
}
