package dev.quiver.sql.planner;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How DuckDB spells the parts of an expression name that are not plain SQL: which words it treats
 * as keywords (so that it quotes them as identifiers), the names of date-part units and of types.
 * The keyword list is DuckDB's own ({@code duckdb_keywords()}; a test checks the two agree).
 */
final class DuckDbSpelling {
    private static final Set<String> KEYWORDS = load("duckdb-keywords.txt");
    /** Units DuckDB's grammar knows as words and prints in capitals; other units print as written. */
    private static final Map<String, String> UNITS = Map.ofEntries(
            Map.entry("YEAR", "YEAR"), Map.entry("MONTH", "MONTH"), Map.entry("DAY", "DAY"), Map.entry("HOUR", "HOUR"),
            Map.entry("MINUTE", "MINUTE"), Map.entry("SECOND", "SECOND"), Map.entry("WEEK", "WEEK"), Map.entry("QUARTER", "QUARTER"),
            Map.entry("DECADE", "DECADE"), Map.entry("CENTURY", "CENTURY"), Map.entry("MILLENNIUM", "MILLENNIUM"),
            Map.entry("MILLISECOND", "MILLISECONDS"), Map.entry("MICROSECOND", "MICROSECONDS"));
    private static final Pattern TYPE = Pattern.compile("(?i)\\s*([a-z_][a-z0-9_]*(?:\\s+(?:precision|varying))?)\\s*(?:\\((.*)\\))?\\s*");

    private DuckDbSpelling() {}

    static boolean isKeyword(String word) {
        return KEYWORDS.contains(word.toLowerCase(Locale.ROOT));
    }

    /** {@code EXTRACT(year FROM d)} is {@code date_part('YEAR', d)}; {@code EXTRACT(dow FROM d)} is {@code date_part('dow', d)}. */
    static String datePartUnit(String written) {
        return UNITS.getOrDefault(written.toUpperCase(Locale.ROOT), written);
    }

    /**
     * A cast's type: SQL's own type words in DuckDB's canonical form ({@code int} is INTEGER,
     * {@code numeric(10,2)} DECIMAL(10, 2), {@code char(3)} VARCHAR(3)); any other type name as written.
     */
    static String typeName(String written) {
        Matcher matcher = TYPE.matcher(written);
        if (!matcher.matches()) {
            return written;
        }
        String name = matcher.group(1).toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
        String arguments = matcher.group(2) == null ? "" : "(" + String.join(", ", matcher.group(2).strip().split("\\s*,\\s*")) + ")";
        String canonical = switch (name) {
            case "INT", "INTEGER" -> "INTEGER";
            case "BIGINT", "SMALLINT", "BOOLEAN", "TIMESTAMP", "TIME", "INTERVAL" -> name;
            case "DOUBLE PRECISION" -> "DOUBLE";
            case "REAL", "FLOAT" -> "FLOAT";
            case "DECIMAL", "DEC", "NUMERIC" -> "DECIMAL";
            case "VARCHAR", "CHAR", "CHARACTER", "CHARACTER VARYING" -> "VARCHAR";
            default -> null;
        };
        if (canonical == null) {
            return written.strip();
        }
        return canonical.equals("FLOAT") || canonical.equals("TIMESTAMP") ? canonical : canonical + arguments;
    }

    private static Set<String> load(String resource) {
        Set<String> words = new HashSet<>();
        try (InputStream in = DuckDbSpelling.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank()) {
                    words.add(line.strip());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Set.copyOf(words);
    }
}
