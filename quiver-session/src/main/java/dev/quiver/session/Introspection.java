package dev.quiver.session;

import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** The results of {@code SHOW TABLES} and {@code DESCRIBE}, with DuckDB's column names. */
final class Introspection {
    static final Schema SHOW_TABLES = new Schema(List.of(QuiverTypes.field("name", QuiverTypes.UTF8, false)));
    static final Schema DESCRIBE = new Schema(List.of(QuiverTypes.field("column_name", QuiverTypes.UTF8, false),
            QuiverTypes.field("column_type", QuiverTypes.UTF8, false), QuiverTypes.field("null", QuiverTypes.UTF8, false),
            QuiverTypes.field("key", QuiverTypes.UTF8, true), QuiverTypes.field("default", QuiverTypes.UTF8, true),
            QuiverTypes.field("extra", QuiverTypes.UTF8, true)));

    private Introspection() {}

    /** Every table and view, one row each, sorted by name (case-insensitively). */
    static List<List<Object>> tableNames(Catalog catalog, Set<String> views) {
        Set<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        names.addAll(views);
        names.addAll(catalog.tableNames());
        List<List<Object>> rows = new ArrayList<>();
        names.forEach(name -> rows.add(List.of(name)));
        return rows;
    }

    /** One row per column: name, type, YES/NO for nullable, and DuckDB's key, default and extra (NULL). */
    static List<List<Object>> columns(Schema schema) {
        List<List<Object>> rows = new ArrayList<>();
        for (Field field : schema.getFields()) {
            rows.add(Arrays.asList(field.getName(), QuiverTypes.sqlName(field.getType()), field.isNullable() ? "YES" : "NO", null, null, null));
        }
        return rows;
    }
}
