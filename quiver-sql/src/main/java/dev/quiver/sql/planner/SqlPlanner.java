package dev.quiver.sql.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.function.FunctionRegistry;
import dev.quiver.engine.metrics.PlanningTimer;
import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.sql.catalog.FileReferenceCatalog;
import dev.quiver.sql.catalog.InformationSchema;
import dev.quiver.sql.catalog.QuiverSchema;
import dev.quiver.sql.function.QuiverConvertletTable;
import dev.quiver.sql.function.QuiverOperatorTable;
import dev.quiver.sql.physical.EngineRexExecutor;
import dev.quiver.sql.physical.TypeMapping;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.ViewTable;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.FrameworkConfig;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.Planner;
import org.apache.calcite.util.Pair;

/**
 * Plans SQL queries over a {@link Catalog} with Apache Calcite: parse (Babel parser, names
 * matched case-insensitively and shown as written), validate, convert, then the passes of
 * {@link LogicalOptimizer}. Failures become {@link QuiverException}s with an error code and, where
 * the text is at fault, its position.
 *
 * <p>Thread-safe: every call uses its own Calcite {@link Planner}, which is a single-threaded
 * state machine. Views are queries by name; a view's column types are derived once and cached.
 */
public final class SqlPlanner {
    static final String SCHEMA_NAME = "quiver";

    static final SqlParser.Config PARSER_CONFIG = SqlParser.config()
            // Babel's parser, with GROUPS frames, window checks and DuckDB's date functions (QuiverParserImpl)
            .withParserFactory(QuiverParserImpl.FACTORY)
            .withUnquotedCasing(Casing.UNCHANGED)
            .withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(false)
            // a file named in a query is one identifier (FileReferenceTokens): paths and read_csv calls are long
            .withIdentifierMaxLength(65_536)
            // LENIENT: GROUP BY ordinals and aliases, as users of Trino, Spark and DuckDB expect.
            // (Calcite's Planner only accepts the enum's values, not a custom conformance.)
            .withConformance(SqlConformanceEnum.LENIENT);

    /** Quiver's aggregates, the registry's functions, Calcite's operators, the Babel parser's few library operators. */
    static final SqlOperatorTable OPERATOR_TABLE = AggregateOperators.table(QuiverOperatorTable.create(FunctionRegistry.builtins()));

    // Join conditions keep their expressions here (Calcite pushes them into projections below the
    // join by default, but then counts the join's inputs at their old widths, so a correlated
    // sub-query in the select list referred to the wrong column); JOIN_PUSH_EXPRESSIONS pushes them later.
    // No simplification while converting: RexSimplify takes `x IN (sub-query)` for NOT NULL when x
    // is (RelOptPredicateList.isEffectivelyNotNull counts IN as a comparison of its operands, which
    // leave out the sub-query's column), so it dropped the IS TRUE of `x IN (SELECT ...) IS TRUE`
    // (and of CASE WHEN x IN (...) THEN TRUE ELSE FALSE END) and a NULL IN became NULL, not FALSE.
    // LogicalOptimizer simplifies once the sub-queries are joins.
    private static final SqlToRelConverter.Config CONVERTER_CONFIG = SqlToRelConverter.config()
            .withExpand(false)
            .withTrimUnusedFields(false)
            .withRelBuilderConfigTransform(builder -> builder.withPushJoinCondition(false).withSimplify(false));
    // With a select-list unnest: the converter's RelBuilder would merge a projection into the one
    // above it, or drop it below an aggregate that reads none of its fields, unnest calls and all, and
    // SELECT count(*) FROM (SELECT unnest(l) FROM t) would count t's rows. Unnests rewrites the calls
    // first; the optimizer's rules merge and prune later.
    private static final SqlToRelConverter.Config UNNEST_CONVERTER_CONFIG = CONVERTER_CONFIG
            .withRelBuilderConfigTransform(builder -> builder.withPushJoinCondition(false).withSimplify(false).withPruneInputOfAggregate(false)
                    .withBloat(-1));

    private static final SqlValidator.Config VALIDATOR_CONFIG = SqlValidator.Config.DEFAULT
            .withTypeCoercionFactory(ComparisonCoercion::new)
            .withTypeCoercionRules(CastRules.RULES);

    private final Catalog catalog;
    private final Map<String, String> views;
    private final CurrentSetting currentSetting;
    /** current_setting(..) as a constant; date and time arithmetic as registry calls; the rest as Calcite converts it. */
    private final SqlRexConvertletTable convertlets;
    private final ConcurrentMap<String, RelDataType> viewRowTypes = new ConcurrentHashMap<>();

    /** A planner outside a session: {@code current_setting} sees the engine's settings at their defaults. */
    public SqlPlanner(Catalog catalog, Map<String, String> views) {
        this(catalog, views, EngineSettings.REGISTRY.defaults());
    }

    /**
     * @param views view SQL by view name; a view may use tables and other views, not itself
     * @param settings the session's settings, which {@code current_setting('name')} reads
     */
    public SqlPlanner(Catalog catalog, Map<String, String> views, Settings settings) {
        // paths, globs and read_parquet/read_csv calls named in the query open as file tables
        this.catalog = new FileReferenceCatalog(requireNonNull(catalog, "catalog is null"), Storages.from(settings));
        this.views = Map.copyOf(requireNonNull(views, "views is null"));
        this.currentSetting = new CurrentSetting(settings);
        SqlRexConvertletTable setting = CurrentSetting.convertlets(currentSetting);
        this.convertlets = LikeEscapeCheck.over(call -> call.getOperator() == currentSetting ? setting.get(call) : QuiverConvertletTable.INSTANCE.get(call));
    }

    /** Plans one query (SELECT, WITH, VALUES, with ORDER BY/LIMIT). */
    public LogicalPlan plan(String query) {
        return plan(query, new PlanningTimer());
    }

    /** {@link #plan(String)}, recording the phases parse, validate, convert and optimize in {@code timer}. */
    public LogicalPlan plan(String query, PlanningTimer timer) {
        requireNonNull(query, "query is null");
        requireNonNull(timer, "timer is null");
        Planner planner = timer.time("parse", () -> Frameworks.getPlanner(config(Set.of(), mentionsUnnest(query))));
        try {
            SqlNode parsed = timer.time("parse", () -> parse(planner, query, Set.of(), false));
            SqlNode validated = timer.time("validate", () -> UnnestPlacement.check(SqlErrors.validate(planner, parsed)));
            RelRoot root = timer.time("convert", () -> SqlErrors.convert(planner, validated));
            List<String> names = root.validatedRowType.getFieldNames();
            RelNode optimized = timer.time("optimize", () -> SqlErrors.optimize(CurrentTimeBinding.apply(root.project(), Instant.now())));
            return new LogicalPlan(optimized, names);
        } finally {
            planner.close();
        }
    }

    /**
     * Plans a small query over an empty in-memory table, so that Calcite's class loading and
     * generated metadata code (one to three seconds in a fresh JVM) are paid before the first
     * real query. Safe to call from a background thread; it touches no shared state of Quiver.
     */
    public static void warmUp() {
        new SqlPlanner(WarmUpCatalog.INSTANCE, Map.of("warm_view", "select k, s from warm where d >= date '2000-01-01' + interval '1' month"))
                .plan(WarmUpCatalog.QUERY);
    }

    /**
     * Validates a query with {@code ?} parameters (a prepared statement's): its columns and the types
     * Calcite infers for its parameters, in order (see {@link QueryParameters}). It is planned once
     * its values are bound ({@link QueryParameters#bind}).
     *
     * @throws QuiverException NOT_SUPPORTED when a parameter's type cannot be told from its context
     */
    public QueryParameters.Prepared prepare(String query) {
        requireNonNull(query, "query is null");
        Planner planner = Frameworks.getPlanner(config(Set.of()));
        try {
            SqlNode validated = SqlErrors.validate(planner, parse(planner, query, Set.of(), false));
            RelRoot root = SqlErrors.convert(planner, validated);
            return new QueryParameters.Prepared(TypeMapping.schema(root.validatedRowType),
                    QueryParameters.types(root.rel, QueryParameters.markers(query).size()));
        } finally {
            planner.close();
        }
    }

    /** Validates a view's query and returns the names of its columns. */
    public List<String> viewColumns(String viewSql) {
        requireNonNull(viewSql, "viewSql is null");
        return validatedRowType(viewSql, Set.of()).getFieldNames();
    }

    private RelDataType validatedRowType(String sql, Set<String> hiddenViews) {
        Planner planner = Frameworks.getPlanner(config(hiddenViews));
        try {
            SqlNode parsed = parse(planner, sql, hiddenViews, false);
            Pair<SqlNode, RelDataType> validated = SqlErrors.validateWithType(planner, parsed);
            // a view is checked as a query is: an unnest it misplaces fails CREATE VIEW
            UnnestPlacement.check(validated.getKey());
            return validated.getValue();
        } finally {
            planner.close();
        }
    }

    /**
     * Parses with DuckDB's additions to the syntax expanded ({@link AllMarkers}, {@link ByAll}) and
     * the unnamed columns named ({@link ColumnNames}).
     *
     * @param countingColumns whether this parse only counts the outermost query's columns (for an
     *     ORDER BY ALL over *), which drops that ORDER BY
     */
    private SqlNode parse(Planner planner, String sql, Set<String> hiddenViews, boolean countingColumns) {
        AllMarkers.Marked marked = AllMarkers.mark(sql);
        SqlNode parsed = SqlErrors.parse(planner, marked.sql());
        parsed = ByAll.expand(parsed, marked.markers(), OPERATOR_TABLE,
                () -> countingColumns ? -1 : outermostColumns(sql, hiddenViews));
        return TableUnnestOfNull.check(AggregateOperators.resolveParsed(ColumnNames.apply(parsed, sql)));
    }

    private int outermostColumns(String sql, Set<String> hiddenViews) {
        Planner planner = Frameworks.getPlanner(config(hiddenViews));
        try {
            return SqlErrors.validatedRowType(planner, parse(planner, sql, hiddenViews, true)).getFieldCount();
        } finally {
            planner.close();
        }
    }

    /** Whether the query, or a view it may use, has the word UNNEST (see UNNEST_CONVERTER_CONFIG). */
    private boolean mentionsUnnest(String query) {
        return Stream.concat(Stream.of(query), views.values().stream()).anyMatch(sql -> sql.toLowerCase(Locale.ROOT).contains("unnest"));
    }

    private FrameworkConfig config(Set<String> hiddenViews) {
        return config(hiddenViews, false);
    }

    private FrameworkConfig config(Set<String> hiddenViews, boolean unnest) {
        Set<String> visible = new HashSet<>(views.keySet());
        visible.removeAll(hiddenViews);
        SchemaPlus root = CalciteSchema.createRootSchema(false, false).plus();
        QuiverSchema tables = new QuiverSchema(catalog, visible, name -> viewTable(name, hiddenViews));
        SchemaPlus schema = root.add(SCHEMA_NAME, tables);
        root.add(InformationSchema.SCHEMA, tables);
        Map<String, String> visibleViews = new HashMap<>(views);
        visibleViews.keySet().retainAll(visible);
        root.add(InformationSchema.NAME, new InformationSchema(catalog, visibleViews, name -> viewSchema(name, hiddenViews)));
        return Frameworks.newConfigBuilder()
                .parserConfig(PARSER_CONFIG)
                .defaultSchema(schema)
                .operatorTable(SqlOperatorTables.chain(OPERATOR_TABLE, SqlOperatorTables.of(currentSetting, UnnestFunction.INSTANCE)))
                .convertletTable(convertlets)
                .typeSystem(QuiverTypeSystem.INSTANCE)
                // constants fold through the engine's kernels, never Calcite's own implementations
                .executor(EngineRexExecutor.INSTANCE)
                .sqlToRelConverterConfig(unnest ? UNNEST_CONVERTER_CONFIG : CONVERTER_CONFIG)
                .sqlValidatorConfig(VALIDATOR_CONFIG)
                .build();
    }

    /**
     * A view expands through the query's own planner (with our parser settings); Calcite's view
     * macro would re-parse it with default, case-sensitive settings. Its row type is derived with
     * the view itself and its callers hidden, so that a cycle of views fails instead of recursing.
     */
    private Table viewTable(String name, Set<String> hiddenViews) {
        RelProtoDataType rowType = typeFactory -> typeFactory.copyType(viewRowType(name, hiddenViews));
        return new ViewTable(Object[].class, rowType, views.get(name), List.of(SCHEMA_NAME), List.of(SCHEMA_NAME, name));
    }

    /** The columns of view {@code name} for information_schema; empty when the view no longer plans. */
    private Optional<Schema> viewSchema(String name, Set<String> hiddenViews) {
        try {
            return Optional.of(TypeMapping.schema(viewRowType(name, hiddenViews)));
        } catch (QuiverException e) {
            return Optional.empty();
        }
    }

    private RelDataType viewRowType(String name, Set<String> hiddenViews) {
        RelDataType cached = viewRowTypes.get(name);
        if (cached != null) {
            return cached;
        }
        Set<String> hidden = new HashSet<>(hiddenViews);
        hidden.add(name);
        RelDataType rowType;
        try {
            rowType = validatedRowType(views.get(name), hidden);
        } catch (QuiverException e) {
            throw SqlErrors.inView(name, e);
        }
        viewRowTypes.putIfAbsent(name, rowType);
        return rowType;
    }
}
