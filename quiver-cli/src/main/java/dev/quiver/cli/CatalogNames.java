package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.session.QuerySession;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The table, view and column names that tab completion offers, read from the session's
 * {@code information_schema}: the catalog that {@code SHOW TABLES} and {@code DESCRIBE} (the
 * shell's {@code .tables} and {@code .schema}) and queries see.
 *
 * @param tables every table and view, by name, with its kind ({@code table} or {@code view})
 * @param columns the names of their columns
 */
record CatalogNames(Map<String, String> tables, Set<String> columns) {
    static final String TABLES = "SELECT table_name, table_type FROM information_schema.tables";
    static final String COLUMNS = "SELECT DISTINCT column_name FROM information_schema.columns";

    CatalogNames {
        tables = Map.copyOf(requireNonNull(tables, "tables is null"));
        columns = Set.copyOf(requireNonNull(columns, "columns is null"));
    }

    /** The names in {@code session} now; none when its catalog cannot be read (completion then offers keywords only). */
    static CatalogNames of(QuerySession session) {
        try {
            Map<String, String> tables = new TreeMap<>();
            for (List<Object> row : session.executeScript(TABLES).rows()) {
                tables.put((String) row.get(0), "VIEW".equals(row.get(1)) ? "view" : "table");
            }
            Set<String> columns = new TreeSet<>();
            for (List<Object> row : session.executeScript(COLUMNS).rows()) {
                columns.add((String) row.get(0));
            }
            return new CatalogNames(tables, columns);
        } catch (QuiverException e) {
            return new CatalogNames(Map.of(), Set.of());
        }
    }
}
