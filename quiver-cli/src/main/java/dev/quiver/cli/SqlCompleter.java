package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.function.FunctionRegistry;
import dev.quiver.engine.expr.function.ScalarFunction;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

/**
 * Tab completion in the shell: SQL keywords (in the case the word is typed in), function names,
 * the session's tables and views and their columns, and meta commands at the start of a line.
 * Names are read from the session's {@code information_schema} ({@link CatalogNames}) on every
 * completion, so a view made a moment ago completes.
 */
final class SqlCompleter implements Completer {
    /** The keywords of the statements Quiver runs; the SQL reference (docs/sql.md) has them all. */
    static final List<String> KEYWORDS = List.of(
            "ALL", "ANALYZE", "AND", "ANTI", "AS", "ASC", "BETWEEN", "BY", "CASE", "CAST", "CREATE", "CROSS", "CUBE",
            "CURRENT_DATE", "DATE", "DECIMAL", "DESC", "DISTINCT", "DROP", "ELSE", "END", "EXCEPT", "EXISTS", "EXPLAIN",
            "EXTERNAL", "EXTRACT", "FALSE", "FILTER", "FIRST", "FOLLOWING", "FROM", "FULL", "GROUP", "GROUPING", "HAVING",
            "IF", "ILIKE", "IN", "INNER", "INTERSECT", "INTERVAL", "IS", "JOIN", "LAST", "LEFT", "LIKE", "LIMIT",
            "LOCATION", "NOT", "NULL", "NULLS", "OFFSET", "ON", "OR", "ORDER", "OUTER", "OVER", "PARTITION", "PRECEDING",
            "QUALIFY", "RANGE", "RECURSIVE", "REPLACE", "RIGHT", "ROLLUP", "ROWS", "SELECT", "SEMI", "SET", "SETS",
            "SETTINGS", "SHOW", "STORED", "TABLE", "THEN", "TIMESTAMP", "TRUE", "UNBOUNDED", "UNION", "USING", "VALUES",
            "VARCHAR", "VIEW", "WHEN", "WHERE", "WINDOW", "WITH");
    /** Aggregate and window functions, which the scalar registry does not hold. */
    static final List<String> AGGREGATES = List.of(
            "avg", "bool_and", "bool_or", "count", "count_if", "dense_rank", "first_value", "lag", "last_value", "lead",
            "max", "median", "min", "mode", "ntile", "percent_rank", "rank", "row_number", "stddev", "stddev_pop",
            "stddev_samp", "string_agg", "sum", "var_pop", "var_samp", "variance");

    private final Supplier<CatalogNames> names;
    private final Set<String> functions = new TreeSet<>();

    /** Completes the tables, views and columns that {@code names} gives at the time of the completion. */
    SqlCompleter(Supplier<CatalogNames> names) {
        this.names = requireNonNull(names, "names is null");
        functions.addAll(AGGREGATES);
        for (ScalarFunction function : FunctionRegistry.builtins().functions()) {
            functions.add(function.name().toLowerCase(Locale.ROOT));
            function.aliases().forEach(alias -> functions.add(alias.toLowerCase(Locale.ROOT)));
        }
    }

    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
        String word = line.word();
        String before = line.line().substring(0, line.cursor() - word.length());
        if (before.isBlank() && MetaCommands.isMetaCommand(line.line().stripLeading())) {
            MetaCommands.NAMES.forEach(name -> candidates.add(candidate(name, "command")));
            return;
        }
        boolean upper = !word.isEmpty() && Character.isUpperCase(word.charAt(0));
        for (String keyword : KEYWORDS) {
            candidates.add(candidate(upper ? keyword : keyword.toLowerCase(Locale.ROOT), "keyword"));
        }
        functions.forEach(name -> candidates.add(candidate(name, "function")));
        CatalogNames catalog = names.get();
        catalog.tables().forEach((table, kind) -> candidates.add(candidate(table, kind)));
        catalog.columns().forEach(column -> candidates.add(candidate(column, "column")));
    }

    private static Candidate candidate(String value, String group) {
        return new Candidate(value, value, group, null, null, null, true);
    }
}
