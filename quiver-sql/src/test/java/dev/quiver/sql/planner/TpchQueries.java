package dev.quiver.sql.planner;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The 22 TPC-H query texts shipped in the tpch jar, split into views and the query. */
final class TpchQueries {
    private static final Pattern CREATE_VIEW = Pattern.compile(
            "\\s*CREATE\\s+(?:OR\\s+REPLACE\\s+)?VIEW\\s+(\\w+)\\s+AS\\s+(.*)", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    /** One TPC-H query: the views it creates first, then the query. */
    record TpchQuery(int number, Map<String, String> views, String sql) {}

    private TpchQueries() {}

    static TpchQuery query(int number) {
        String text = resource("io/trino/tpch/queries/q" + number + ".sql").replaceAll("--[^\n]*", "");
        Map<String, String> views = new LinkedHashMap<>();
        String query = null;
        for (String statement : text.split(";")) {
            if (statement.isBlank()) {
                continue;
            }
            Matcher view = CREATE_VIEW.matcher(statement);
            if (view.matches()) {
                views.put(view.group(1), view.group(2).strip());
            } else if (statement.strip().toUpperCase(Locale.ROOT).startsWith("DROP")) {
                continue;
            } else {
                query = statement.strip();
            }
        }
        return new TpchQuery(number, views, query);
    }

    private static String resource(String name) {
        try (InputStream in = TpchQueries.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
