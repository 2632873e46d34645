package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QuerySession;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The tables and views of a session with their columns, for the shell's {@code .tables},
 * {@code .schema} and completion. A table's schema is its source's; a view's is that of its query,
 * planned (not run).
 */
final class SchemaNames {
    private SchemaNames() {}

    /** A table or view: its name, {@code table} or {@code view}, and its columns. */
    record Table(String name, String kind, List<Column> columns) {
        Table {
            requireNonNull(name, "name is null");
            requireNonNull(kind, "kind is null");
            columns = List.copyOf(columns);
        }

        static Table of(String name, String kind, List<String> columnNames, Schema schema) {
            List<Column> columns = new ArrayList<>();
            for (int i = 0; i < columnNames.size(); i++) {
                Field field = schema.getFields().get(i);
                columns.add(new Column(columnNames.get(i), field.getType(), field.isNullable()));
            }
            return new Table(name, kind, columns);
        }

        List<String> columnNames() {
            return columns.stream().map(Column::name).toList();
        }
    }

    /** A column as SQL sees it. */
    record Column(String name, ArrowType type, boolean nullable) {
        Column {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
        }
    }

    /** Every table and view of {@code session}, tables first, each group by name; a view that no longer plans is left out. */
    static List<Table> all(QuerySession session) {
        List<Table> tables = new ArrayList<>();
        for (String name : session.catalog().tableNames()) {
            session.catalog().table(name).ifPresent(source -> tables.add(ofSource(source)));
        }
        for (String view : session.views().keySet()) {
            try {
                tables.add(planned(session, view, "view"));
            } catch (QuiverException e) {
                // a view over a table dropped since: .schema of it reports the error
            }
        }
        return tables;
    }

    /**
     * The table or view {@code name} (matched as SQL matches names: case-insensitively, or exactly
     * when double-quoted).
     *
     * @throws QuiverException TABLE_NOT_FOUND when there is none, or the view's planning error
     */
    static Table describe(QuerySession session, String name) {
        String unquoted = unquote(name);
        Optional<TableSource> table = session.catalog().table(unquoted);
        if (table.isPresent()) {
            return ofSource(table.get());
        }
        Map<String, String> views = session.views();
        return planned(session, unquoted, views.containsKey(unquoted) ? "view" : "table");
    }

    private static Table ofSource(TableSource source) {
        Schema schema = source.schema();
        return Table.of(source.name(), "table", schema.getFields().stream().map(Field::getName).toList(), schema);
    }

    /** Plans {@code SELECT * FROM name} without running it: its columns are the view's. */
    private static Table planned(QuerySession session, String name, String kind) {
        try (QueryHandle handle = session.execute("SELECT * FROM \"" + name.replace("\"", "\"\"") + "\"")) {
            return Table.of(name, kind, handle.columnNames(), handle.schema());
        }
    }

    private static String unquote(String name) {
        if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
            return name.substring(1, name.length() - 1).replace("\"\"", "\"");
        }
        return name;
    }
}
