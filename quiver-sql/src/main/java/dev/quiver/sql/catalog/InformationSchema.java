package dev.quiver.sql.catalog;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * The SQL-standard {@code information_schema}: {@code tables}, {@code columns}, {@code views} and
 * {@code schemata}, with the column names and values PostgreSQL and DuckDB give them (DuckDB's
 * where the two differ, e.g. {@code data_type} is {@code DECIMAL(15,2)}, not {@code numeric}).
 * Tables and views live in catalog {@value #CATALOG}, schema {@value #SCHEMA}. The rows are a
 * snapshot taken when a query scans the table.
 */
public final class InformationSchema extends AbstractSchema {
    /** The name of the schema itself. */
    public static final String NAME = "information_schema";
    /** {@code table_catalog} of every table, as DuckDB names its in-memory database. */
    public static final String CATALOG = "memory";
    /** {@code table_schema} of every table and view (also queryable as {@code main.t}). */
    public static final String SCHEMA = "main";

    private static final Schema TABLES = schema(text("table_catalog"), text("table_schema"), text("table_name"), text("table_type"),
            text("self_referencing_column_name"), text("reference_generation"), text("user_defined_type_catalog"),
            text("user_defined_type_schema"), text("user_defined_type_name"), text("is_insertable_into"), text("is_typed"),
            text("commit_action"));
    private static final Schema COLUMNS = schema(text("table_catalog"), text("table_schema"), text("table_name"), text("column_name"),
            integer("ordinal_position"), text("column_default"), text("is_nullable"), text("data_type"),
            integer("character_maximum_length"), integer("character_octet_length"), integer("numeric_precision"),
            integer("numeric_precision_radix"), integer("numeric_scale"), integer("datetime_precision"));
    private static final Schema VIEWS = schema(text("table_catalog"), text("table_schema"), text("table_name"), text("view_definition"),
            text("check_option"), text("is_updatable"), text("is_insertable_into"), text("is_trigger_updatable"),
            text("is_trigger_deletable"), text("is_trigger_insertable_into"));
    private static final Schema SCHEMATA = schema(text("catalog_name"), text("schema_name"), text("schema_owner"),
            text("default_character_set_catalog"), text("default_character_set_schema"), text("default_character_set_name"),
            text("sql_path"));

    private final Catalog catalog;
    private final Map<String, String> views;
    private final Function<String, Optional<Schema>> viewSchema;

    /**
     * @param views the views' SQL by name
     * @param viewSchema the columns of a view; empty when the view no longer plans (its columns
     *     are then left out, as a table that cannot be read would be)
     */
    public InformationSchema(Catalog catalog, Map<String, String> views, Function<String, Optional<Schema>> viewSchema) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.views = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        this.views.putAll(requireNonNull(views, "views is null"));
        this.viewSchema = requireNonNull(viewSchema, "viewSchema is null");
    }

    @Override
    protected Map<String, Table> getTableMap() {
        return Map.of(
                "tables", table("tables", TABLES, this::tableRows),
                "columns", table("columns", COLUMNS, this::columnRows),
                "views", table("views", VIEWS, this::viewRows),
                "schemata", table("schemata", SCHEMATA, InformationSchema::schemataRows));
    }

    private static Table table(String name, Schema schema, Supplier<List<List<Object>>> rows) {
        return new QuiverTable(new MetadataTable(NAME + "." + name, schema, rows));
    }

    /** Tables, then views, each sorted by name (a view hides a table of its name, as in queries). */
    private List<List<Object>> tableRows() {
        List<List<Object>> rows = new ArrayList<>();
        for (TableSource table : catalogTables()) {
            rows.add(row(CATALOG, SCHEMA, table.name(), "BASE TABLE", null, null, null, null, null, yesNo(table.insertable()), "NO", null));
        }
        for (String view : views.keySet()) {
            rows.add(row(CATALOG, SCHEMA, view, "VIEW", null, null, null, null, null, "NO", "NO", null));
        }
        return rows;
    }

    private List<List<Object>> columnRows() {
        List<List<Object>> rows = new ArrayList<>();
        for (TableSource table : catalogTables()) {
            addColumns(rows, table.name(), table.schema());
        }
        for (String view : views.keySet()) {
            viewSchema.apply(view).ifPresent(schema -> addColumns(rows, view, schema));
        }
        return rows;
    }

    private List<List<Object>> viewRows() {
        List<List<Object>> rows = new ArrayList<>();
        views.forEach((name, sql) -> rows.add(row(CATALOG, SCHEMA, name, sql, "NONE", "NO", "NO", "NO", "NO", "NO")));
        return rows;
    }

    private static List<List<Object>> schemataRows() {
        return List.of(row(CATALOG, NAME, null, null, null, null, null), row(CATALOG, SCHEMA, null, null, null, null, null));
    }

    private List<TableSource> catalogTables() {
        List<TableSource> tables = new ArrayList<>();
        for (String name : new TreeSet<>(catalog.tableNames())) {
            if (!views.containsKey(name)) {
                catalog.table(name).ifPresent(tables::add);
            }
        }
        return tables;
    }

    private static void addColumns(List<List<Object>> rows, String table, Schema schema) {
        List<Field> fields = schema.getFields();
        for (int i = 0; i < fields.size(); i++) {
            ArrowType type = fields.get(i).getType();
            rows.add(row(CATALOG, SCHEMA, table, fields.get(i).getName(), i + 1, null, yesNo(fields.get(i).isNullable()),
                    QuiverTypes.sqlName(type), null, null, numericPrecision(type), numericRadix(type), numericScale(type), null));
        }
    }

    /** Bits for binary numbers, digits for decimals, as DuckDB reports them. */
    private static Integer numericPrecision(ArrowType type) {
        if (type instanceof ArrowType.Int i) {
            return i.getBitWidth();
        }
        if (type instanceof ArrowType.FloatingPoint f) {
            return f.getPrecision() == FloatingPointPrecision.DOUBLE ? 53 : 24;
        }
        return type instanceof ArrowType.Decimal d ? d.getPrecision() : null;
    }

    private static Integer numericRadix(ArrowType type) {
        if (type instanceof ArrowType.Int || type instanceof ArrowType.FloatingPoint) {
            return 2;
        }
        return type instanceof ArrowType.Decimal ? 10 : null;
    }

    private static Integer numericScale(ArrowType type) {
        if (type instanceof ArrowType.Int || type instanceof ArrowType.FloatingPoint) {
            return 0;
        }
        return type instanceof ArrowType.Decimal d ? d.getScale() : null;
    }

    private static String yesNo(boolean yes) {
        return yes ? "YES" : "NO";
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    private static Field text(String name) {
        return QuiverTypes.field(name, QuiverTypes.UTF8, true);
    }

    private static Field integer(String name) {
        return QuiverTypes.field(name, QuiverTypes.INT32, true);
    }

    private static Schema schema(Field... fields) {
        return new Schema(List.of(fields));
    }
}
