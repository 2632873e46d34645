package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.session.QuerySession;
import dev.quiver.session.UserSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetDbSchemas;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTables;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The catalog as Flight SQL's metadata calls show it (what JDBC's {@code DatabaseMetaData} reads):
 * one catalog, {@value #CATALOG}, with the schemas {@value #MAIN} (the tables and views queries name)
 * and {@code information_schema}, named as {@code information_schema.tables} names them.
 */
final class CatalogMetadata {
    static final String CATALOG = "memory";
    static final String MAIN = "main";
    static final String INFORMATION_SCHEMA = "information_schema";
    static final List<String> TABLE_TYPES = List.of("SYSTEM TABLE", "TABLE", "VIEW");
    private static final List<String> SYSTEM_TABLES = List.of("columns", "schemata", "tables", "views");

    /** One table as GetTables lists it. */
    record TableEntry(String schema, String name, String type, Optional<Schema> columns) {}

    private final QuerySession shared;

    CatalogMetadata(QuerySession shared) {
        this.shared = requireNonNull(shared, "shared is null");
    }

    List<List<Object>> catalogs() {
        return List.of(List.of(CATALOG));
    }

    List<List<Object>> schemas(CommandGetDbSchemas command) {
        Optional<String> catalog = command.hasCatalog() ? Optional.of(command.getCatalog()) : Optional.empty();
        Pattern pattern = like(command.hasDbSchemaFilterPattern() ? command.getDbSchemaFilterPattern() : "%");
        List<List<Object>> rows = new ArrayList<>();
        if (catalog.map(CATALOG::equalsIgnoreCase).orElse(true)) {
            for (String schema : List.of(INFORMATION_SCHEMA, MAIN)) {
                if (pattern.matcher(schema).matches()) {
                    rows.add(List.of(CATALOG, schema));
                }
            }
        }
        return rows;
    }

    /** The tables {@code command} asks for, sorted by type, schema and name (as JDBC orders them). */
    List<TableEntry> tables(CommandGetTables command, UserSession session) {
        if (command.hasCatalog() && !command.getCatalog().equalsIgnoreCase(CATALOG)) {
            return List.of();
        }
        Pattern schemas = like(command.hasDbSchemaFilterPattern() ? command.getDbSchemaFilterPattern() : "%");
        Pattern names = like(command.hasTableNameFilterPattern() ? command.getTableNameFilterPattern() : "%");
        List<String> types = command.getTableTypesList();
        List<TableEntry> entries = new ArrayList<>();
        boolean columns = command.getIncludeSchema();
        if (schemas.matcher(INFORMATION_SCHEMA).matches() && wanted(types, "SYSTEM TABLE")) {
            for (String table : SYSTEM_TABLES) {
                if (names.matcher(table).matches()) {
                    entries.add(new TableEntry(INFORMATION_SCHEMA, table, "SYSTEM TABLE",
                            columns ? Optional.of(session.describe("select * from information_schema." + table).schema()) : Optional.empty()));
                }
            }
        }
        if (schemas.matcher(MAIN).matches()) {
            if (wanted(types, "TABLE")) {
                for (String table : new TreeSet<>(shared.catalog().tableNames())) {
                    if (names.matcher(table).matches() && !shared.views().containsKey(table)) {
                        entries.add(new TableEntry(MAIN, table, "TABLE", columns ? shared.catalog().table(table).map(TableSource::schema) : Optional.empty()));
                    }
                }
            }
            if (wanted(types, "VIEW")) {
                for (String view : new TreeSet<>(shared.views().keySet())) {
                    if (names.matcher(view).matches()) {
                        entries.add(new TableEntry(MAIN, view, "VIEW", columns ? viewColumns(session, view) : Optional.empty()));
                    }
                }
            }
        }
        return entries;
    }

    /** A view that no longer plans (a table under it was dropped) is listed without columns. */
    private static Optional<Schema> viewColumns(UserSession session, String view) {
        try {
            return Optional.of(session.describe("select * from \"" + view.replace("\"", "\"\"") + "\"").schema());
        } catch (QuiverException e) {
            return Optional.of(new Schema(List.of()));
        }
    }

    private static boolean wanted(List<String> types, String type) {
        return types.isEmpty() || types.stream().anyMatch(type::equalsIgnoreCase);
    }

    /** A Flight SQL filter pattern ({@code %} any text, {@code _} one character), matched ignoring case as Quiver names match. */
    static Pattern like(String pattern) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '%') {
                regex.append(".*");
            } else if (c == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL);
    }
}
