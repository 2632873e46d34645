package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.spi.TableSource;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What a session with a catalog directory ({@link QuerySession.Builder#catalogDirectory}) keeps
 * there, like a DuckDB database file: its views, its external tables' definitions and the tables
 * {@code CREATE TABLE} makes (as Parquet, {@link StoredTables}; {@code TEMP} tables stay in
 * memory). The session tells it of each change; a new session over the directory starts with
 * them all.
 */
final class CatalogPersistence implements AutoCloseable {
    private static final Pattern LOCATION = Pattern.compile("(?is)(\\bLOCATION\\s+')((?:[^']|'')*)(')");

    private final CatalogDirectory directory;
    private final StoredTables stored;

    private CatalogPersistence(CatalogDirectory directory) {
        this.directory = directory;
        this.stored = new StoredTables(directory);
    }

    /** Opens and locks the directory (see {@link CatalogDirectory#open}). */
    static CatalogPersistence open(Path path) {
        return new CatalogPersistence(CatalogDirectory.open(path));
    }

    StoredTables stored() {
        return stored;
    }

    /**
     * Registers the directory's tables in {@code catalog} and puts its views in {@code views}. An
     * external table is opened by running its statement with {@code openExternal}; one whose files
     * cannot be opened, like a stored table whose files cannot, stays as an {@link UnavailableTable}.
     */
    void load(SessionCatalog catalog, Map<String, String> views, Function<String, TableSource> openExternal) {
        for (TableSource table : stored.load()) {
            register(catalog, table);
        }
        for (CatalogDirectory.ExternalEntry entry : directory.externals()) {
            TableSource table;
            try {
                table = openExternal.apply(entry.statement());
            } catch (QuiverException e) {
                table = new UnavailableTable(entry.name(), entry.columns(), e.getMessage());
            }
            register(catalog, table);
        }
        directory.views().forEach(view -> views.put(view.name(), view.sql()));
    }

    private void register(SessionCatalog catalog, TableSource table) {
        try {
            catalog.register(table, false);
        } catch (QuiverException e) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "Catalog directory " + directory.path() + " holds table '" + table.name()
                    + "', which the session cannot register: " + e.getMessage(), e);
        }
    }

    void viewCreated(String name, String sql) {
        directory.putView(name, sql);
    }

    void viewDropped(String name) {
        directory.removeView(name);
    }

    /** Records the external table {@code statement} made ({@code CREATE EXTERNAL TABLE}, its location made absolute). */
    void externalTableCreated(String name, String statement, Schema columns) {
        directory.putExternal(name, absoluteLocation(statement), columns);
    }

    /** Records a stored table (a new one, or one that replaced another of its name). */
    void storedTableCreated(StoredTable table) {
        directory.putTable(table.name(), table.directoryName(), table.schema());
    }

    /** Forgets whatever table of that name the directory lists (after DROP TABLE, or when a TEMP table took the name). */
    void tableRemoved(String name) {
        directory.removeTable(name);
    }

    /** A statement as the catalog keeps it: comments gone, and a relative LOCATION resolved against the working directory of now. */
    static String absoluteLocation(String statement) {
        String text = StatementParser.blankComments(statement).strip();
        while (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1).strip();
        }
        Matcher matcher = LOCATION.matcher(text);
        if (!matcher.find()) {
            return text;
        }
        String location = matcher.group(2).replace("''", "'");
        if (location.contains("://")) {
            return text;
        }
        String absolute = Path.of(location).toAbsolutePath().normalize().toString().replace("'", "''");
        return text.substring(0, matcher.start(2)) + absolute + text.substring(matcher.end(2));
    }

    @Override
    public void close() {
        directory.close();
    }

    @Override
    public String toString() {
        return "CatalogPersistence{" + requireNonNull(directory.path()) + "}";
    }
}
