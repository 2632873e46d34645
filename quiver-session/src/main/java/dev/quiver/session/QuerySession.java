package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.codec.spi.ExprCodec;
import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.CoordinatorMetrics;
import dev.quiver.distributed.coordinator.RetryingQuery;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.coordinator.PlannedQuery;
import dev.quiver.distributed.coordinator.discovery.StaticWorkerResolver;
import dev.quiver.distributed.coordinator.discovery.WorkerResolver;
import dev.quiver.distributed.coordinator.spi.QueryEventListener;
import dev.quiver.distributed.event.StageEventHandler;
import dev.quiver.distributed.explain.DistributedExplain;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.TaskEstimator;
import dev.quiver.distributed.plan.TaskEstimators;
import dev.quiver.distributed.planner.StageEventDispatcher;
import dev.quiver.distributed.protocol.ClusterSecret;
import dev.quiver.distributed.protocol.ClusterSecurity;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.distributed.worker.LocalCluster;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Setting;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanDisplay;
import dev.quiver.engine.execution.TimeBreakdown;
import dev.quiver.engine.metrics.PlanningTimer;
import dev.quiver.engine.execution.PlanDot;
import dev.quiver.engine.execution.PlanExecutor;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.ValuesExec;
import dev.quiver.engine.source.files.FileTables;
import dev.quiver.engine.source.memory.InMemoryTable;
import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.session.spi.QuiverPlugin;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A single-node SQL session over a {@link Catalog}: runs queries, {@code EXPLAIN [ANALYZE]},
 * {@code SET}, {@code CREATE [OR REPLACE] VIEW}, {@code DROP VIEW}, {@code CREATE EXTERNAL TABLE} (Parquet,
 * Arrow IPC and CSV files; see {@link FileTables}), and the statements of {@code CatalogStatements}:
 * {@code SHOW TABLES}, {@code DESCRIBE}, {@code CREATE TABLE [AS]}, {@code INSERT}, {@code COPY ... TO},
 * {@code DROP TABLE}. With {@link Builder#catalogDirectory} its views and tables outlive it.
 *
 * <p>The session owns a {@link RootAllocator}, a {@link MemoryPool} holding the memory limit, and
 * the {@link QuiverExecutor} whose threads run queries. Each query gets its own
 * {@link TaskContext} and child allocator, owned by its {@link QueryHandle}; a failed query
 * releases everything it held, so the session stays usable. {@link #close()} fails if Arrow memory
 * or pool reservations leaked.
 *
 * <p>Statements may run concurrently; settings and views changed by one statement apply to
 * statements submitted after it.
 *
 * <p><b>Distributed.</b> With workers ({@link Builder#workers} or {@link Builder#localWorkers}) every
 * query is planned into stages ({@link dev.quiver.distributed.planner.DistributedPlanner}) and run by
 * the session's {@link dev.quiver.distributed.coordinator.Coordinator}: the head stage on this
 * session's threads, the others as tasks on the workers. {@code EXPLAIN} then shows the stages,
 * {@code EXPLAIN ANALYZE} each task's state and metrics; {@link QueryHandle#finalPlan()} and
 * {@link QueryHandle#events()} observe a query. The {@code distributed.*} settings
 * ({@link DistributedSettings}) apply.
 *
 * <p><b>Settings.</b> One immutable {@link Settings} value over {@link SessionSettings#REGISTRY};
 * {@code SET} replaces it for the statements after it, {@code SHOW SETTINGS} lists it.
 */
public final class QuerySession implements AutoCloseable {

    private final SessionCatalog catalog;
    private final BufferAllocator allocator;
    private final QuiverExecutor executor;
    private final SessionViews views;
    private final AtomicLong queryIds = new AtomicLong();
    private final Optional<DistributedRuntime> distributed;
    /** Tells this session's queries apart from other sessions' on shared workers. */
    private final String sessionTag = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    private final MemoryTables memoryTables;
    private final Optional<CatalogPersistence> persistence;
    private final CatalogStatements catalogStatements;
    /** The session's own settings and pool, which {@link #execute(String)} runs with. */
    private final StatementScope ownScope = new OwnScope();
    private Settings settings;
    private MemoryPool pool;
    private final List<MemoryPool> retiredPools = new ArrayList<>();
    private boolean closed;

    private QuerySession(Catalog catalog, Settings settings, Builder builder) {
        this.catalog = new SessionCatalog(requireNonNull(catalog, "catalog is null"));
        SessionExtensions extensions = builder.extensions();
        extensions.tables().forEach(table -> this.catalog.register(table, false));
        this.settings = requireNonNull(settings, "settings is null");
        this.pool = new MemoryPool(settings.get(SessionSettings.MEMORY_LIMIT));
        // locked first: a directory another process uses stops the session before it starts anything
        this.persistence = builder.catalogDirectory.map(CatalogPersistence::open);
        this.allocator = new RootAllocator();
        this.executor = new QuiverExecutor("session");
        try {
            this.distributed = builder.cluster.isEmpty() ? Optional.empty()
                    : Optional.of(ClusterSetup.start(builder.clusterSpec(), catalog, allocator, executor, builder.listeners, builder.finalizationTimeout,
                            new StageEventDispatcher(builder.stageEventHandlers), extensions));
        } catch (RuntimeException e) {
            executor.close();
            allocator.close();
            persistence.ifPresent(CatalogPersistence::close);
            throw e;
        }
        this.memoryTables = new MemoryTables(allocator, this::memoryPool);
        this.views = new SessionViews(this.catalog, persistence);
        this.catalogStatements = new CatalogStatements(this.catalog, memoryTables, persistence, new StatementSession(ownScope));
        try {
            persistence.ifPresent(p -> {
                Map<String, String> kept = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                p.load(this.catalog, kept, statement -> CatalogStatements.openExternalTable(Storages.from(settings), statement));
                views.restore(kept);
            });
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Plans a constant query against an empty catalog and drops the plan. In a new JVM that loads
     * and initialises the SQL planner (Calcite's operator tables, parser, type system and rule sets),
     * which is most of the time a short statement takes; a command-line tool calls this on a thread
     * of its own as it starts, so that the work overlaps reading its arguments and building its
     * session. Safe from any thread, any number of times; it never fails (a real failure is the
     * first statement's to report).
     */
    public static void warmUpPlanner() {
        try {
            QueryPlanning.plan(new SessionCatalog(new NoTables()), Map.of(), SessionSettings.REGISTRY.defaults(), "SELECT 1");
        } catch (RuntimeException e) {
            // the first statement meets the same failure and reports it
        }
    }

    /** The builder's catalog with the tables registered in this session over it. */
    public Catalog catalog() {
        return catalog;
    }

    /**
     * Makes {@code table} queryable under its name, as {@code CREATE EXTERNAL TABLE} does (e.g. a
     * file table from {@link dev.quiver.engine.source.files.FileTables#open}).
     *
     * @throws QuiverException INVALID_ARGUMENT if a table or view of that name exists
     */
    public void registerTable(TableSource table) {
        requireNonNull(table, "table is null");
        synchronized (this) {
            checkOpen();
            if (views.contains(table.name())) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "'" + table.name() + "' is a view; choose another table name");
            }
        }
        catalog.register(table, false);
    }

    /** The settings statements submitted now run with. */
    public synchronized Settings settings() {
        return settings;
    }

    /** Whether queries run on workers. */
    public boolean isDistributed() {
        return distributed.isPresent();
    }

    /** The workers the session's resolver names now (empty for a single-node session); a query runs on those of them that answer. */
    public List<WorkerAddress> workers() {
        return distributed.map(d -> d.coordinator().workers()).orElse(List.of());
    }

    /** Where the session's workers come from, as configured (e.g. {@code dns:quiver-workers:7070}); empty for a single-node session. */
    public Optional<String> workerSource() {
        return distributed.map(d -> d.coordinator().resolver().describe());
    }

    /** The coordinator's counters (e.g. {@code metrics_finalization_timeouts}), if the session has workers. */
    public Optional<CoordinatorMetrics> coordinatorMetrics() {
        return distributed.map(d -> d.coordinator().metrics());
    }

    /** The in-JVM workers of {@link Builder#localWorkers}, if the session started them. */
    public Optional<LocalCluster> localCluster() {
        return distributed.flatMap(DistributedRuntime::localCluster);
    }

    /** The pool that queries submitted now reserve from. */
    public synchronized MemoryPool memoryPool() {
        return pool;
    }

    /**
     * A child of the session's allocator, for a caller that takes the batches of the session's
     * queries into vectors of its own (a server loading results into its Flight stream: Arrow shares
     * buffers only under one root). Close it before the session, whose close reports it otherwise.
     */
    public synchronized BufferAllocator newChildAllocator(String name) {
        checkOpen();
        return allocator.newChildAllocator(requireNonNull(name, "name is null"), 0, Long.MAX_VALUE);
    }

    /** The views defined in this session, by name. */
    public Map<String, String> views() {
        return new LinkedHashMap<>(views.snapshot());
    }

    /**
     * Runs every statement of {@code script} ({@code ;}-separated, {@code --} comments allowed) in
     * order and returns the result of the last one.
     */
    public QueryResult executeScript(String script) {
        List<ScriptStatement> statements = ScriptStatement.split(requireNonNull(script, "script is null"));
        if (statements.isEmpty()) {
            throw new QuiverException(ErrorCode.SYNTAX_ERROR, "The script holds no statement");
        }
        QueryResult last = null;
        for (ScriptStatement statement : statements) {
            try (QueryHandle handle = execute(statement)) {
                last = collectAt(handle, statement);
            }
        }
        return last;
    }

    /**
     * Starts one statement of a script ({@link ScriptStatement#split}); an error in it reports its
     * position in the script. The caller reads and closes the returned handle.
     */
    public QueryHandle execute(ScriptStatement statement) {
        requireNonNull(statement, "statement is null");
        try {
            return execute(statement.text());
        } catch (QuiverException e) {
            throw SqlPositions.relocate(e, statement.script(), statement.offset());
        }
    }

    private static QueryResult collectAt(QueryHandle handle, ScriptStatement statement) {
        try {
            return handle.collect();
        } catch (QuiverException e) {
            throw SqlPositions.relocate(e, statement.script(), statement.offset());
        }
    }

    /** Starts one statement; the caller reads and closes the returned handle. */
    public QueryHandle execute(String sql) {
        return execute(sql, ownScope);
    }

    /**
     * A session of its own over this one, as a server gives each connection: its settings start as
     * this session's and {@code SET} changes only them; tables, views and the catalog directory are
     * this session's, shared. It needs no closing: it holds nothing but its settings.
     */
    public UserSession openUserSession() {
        synchronized (this) {
            checkOpen();
        }
        return new UserSession(this);
    }

    /** Starts one statement in {@code scope}. */
    QueryHandle execute(String sql, StatementScope scope) {
        requireNonNull(sql, "sql is null");
        try {
            return executeStatement(sql, scope);
        } catch (RuntimeException | StackOverflowError e) {
            throw ErrorTranslatingBatchStream.translate(e, "The statement");
        }
    }

    /** What {@code sql} returns, without running it (see {@link StatementDescriber}). */
    StatementDescription describe(String sql, StatementScope scope) {
        requireNonNull(sql, "sql is null");
        Statement statement;
        try {
            statement = StatementParser.parse(sql);
        } catch (RuntimeException | StackOverflowError e) {
            throw ErrorTranslatingBatchStream.translate(e, "The statement");
        }
        try {
            Settings current = scope.settings();
            StatementDescriber.Planning planning = StatementDescriber.planning(
                    query -> planQuery(query, scope).schema(),
                    query -> QueryPlanning.prepare(catalog, views.snapshot(), current, query));
            return StatementDescriber.describe(statement, sql, planning, current.get(SessionSettings.EXPLAIN_FORMAT));
        } catch (QuiverException e) {
            throw SqlPositions.relocate(e, sql, SqlPositions.offsetOf(sql, statement));
        } catch (RuntimeException | StackOverflowError e) {
            throw ErrorTranslatingBatchStream.translate(e, "The statement");
        }
    }

    private QueryHandle executeStatement(String sql, StatementScope scope) {
        Statement statement = StatementParser.parse(sql);
        try {
            return executeParsed(statement, sql, scope);
        } catch (QuiverException e) {
            throw SqlPositions.relocate(e, sql, SqlPositions.offsetOf(sql, statement));
        }
    }

    /** @param sql the statement as written, which a catalog directory keeps for CREATE EXTERNAL TABLE */
    private QueryHandle executeParsed(Statement statement, String sql, StatementScope scope) {
        long start = System.nanoTime();
        if (statement instanceof Statement.Query query) {
            ExecutionPlan plan = planQuery(query.sql(), scope);
            if (distributed.isEmpty()) {
                return startQuery(plan, start, scope);
            }
            String queryId = nextDistributedQueryId();
            return startDistributed(planDistributed(plan, queryId, scope), queryId, start, scope);
        }
        if (statement instanceof Statement.Explain explain) {
            return explain(explain, start, scope);
        }
        if (statement instanceof Statement.ShowSettings) {
            return literalResult(SettingsResult.SCHEMA, SettingsResult.rows(scope.settings()), start, scope);
        }
        if (statement instanceof Statement.CatalogStatement catalogStatement) {
            return new CatalogStatements(catalog, memoryTables, persistence, new StatementSession(scope)).execute(catalogStatement, start);
        }
        if (statement instanceof Statement.Set set) {
            scope.set(set.name(), set.value());
        } else if (statement instanceof Statement.CreateView create) {
            createView(create, scope);
        } else if (statement instanceof Statement.DropView drop) {
            dropView(drop);
        } else if (statement instanceof Statement.CreateExternalTable create) {
            catalogStatements.createExternalTable(create, sql);
        }
        return literalResult(new Schema(List.of()), List.of(), start, scope);
    }

    private QueryHandle explain(Statement.Explain explain, long start, StatementScope scope) {
        PlanningTimer planning = new PlanningTimer();
        ExecutionPlan plan = planQuery(explain.query(), scope, planning);
        SessionSettings.ExplainFormat format = explain.format().orElseGet(() -> scope.settings().get(SessionSettings.EXPLAIN_FORMAT));
        if (distributed.isPresent()) {
            String queryId = nextDistributedQueryId();
            DistributedRuntime.Planned planned = planning.time("distributed", () -> planDistributed(plan, queryId, scope));
            return explainDistributed(planned, queryId, explain.analyze(), format, new ExplainTiming(start, planning), scope);
        }
        boolean dot = format == SessionSettings.ExplainFormat.DOT;
        if (!explain.analyze()) {
            return explainResult(dot ? PlanDot.dot(plan) : PlanDisplay.indent(plan), format, start, plan, scope);
        }
        long executionStart = System.nanoTime();
        try (QueryHandle run = startQuery(plan, start, scope)) {
            drain(run);
        }
        long execution = System.nanoTime() - executionStart;
        if (dot) {
            return explainResult(PlanDot.dotWithMetrics(plan), format, start, plan, scope);
        }
        String shown = PlanDisplay.indentWithMetrics(plan);
        shown += new ExplainTiming(start, planning).breakdown(execution, TimeBreakdown.operatorsOf(plan));
        return explainResult(shown, format, start, plan, scope);
    }

    /** When an EXPLAIN ANALYZE started and how long its planning phases took, for its {@link TimeBreakdown}. */
    private record ExplainTiming(long start, PlanningTimer planning) {
        /** The breakdown's lines, each ending in a line break, with the wall time measured now. */
        String breakdown(long executionNanos, List<TimeBreakdown.OperatorTime> operators) {
            TimeBreakdown breakdown = new TimeBreakdown(System.nanoTime() - start, planning.phases(), executionNanos, operators);
            return String.join("\n", breakdown.lines()) + "\n";
        }
    }

    /** The one row of an EXPLAIN: the plan in {@code format}, which the column's metadata names ({@link QueryHandle#explainFormat()}). */
    private QueryHandle explainResult(String shown, SessionSettings.ExplainFormat format, long start, ExecutionPlan plan, StatementScope scope) {
        return literalResult(StatementDescriber.explainSchema(format), List.of(List.of(shown)), start, plan, scope);
    }

    private QueryHandle explainDistributed(DistributedRuntime.Planned planned, String queryId, boolean analyze, SessionSettings.ExplainFormat format,
            ExplainTiming timing, StatementScope scope) {
        long start = timing.start();
        PlannedQuery plan = planned.query();
        if (!analyze && plan instanceof PlannedQuery.Adaptive) {
            // AQE: no stage is cut or sized before execution (DESIGN §5)
            String shown = "distributed.dynamic_task_count=true: AQE decides the stages and their task counts at run time (EXPLAIN ANALYZE or"
                    + " QueryHandle.finalPlan() show the final distributed plan); the single-node plan:\n" + PlanDisplay.indent(plan.singleNodePlan());
            if (format == SessionSettings.ExplainFormat.DOT) {
                // a DOT comment keeps the graph valid for `dot`
                shown = "// " + shown.substring(0, shown.indexOf('\n')) + "\n" + PlanDot.dot(plan.singleNodePlan());
            }
            return explainResult(shown, format, start, plan.singleNodePlan(), scope);
        }
        if (!analyze) {
            DistributedPlan stages = ((PlannedQuery.Static) plan).plan();
            String shown = format == SessionSettings.ExplainFormat.DOT ? DistributedExplain.dot(stages) : DistributedExplain.text(stages);
            return explainResult(shown, format, start, plan.singleNodePlan(), scope);
        }
        FinalPlan done;
        long executionStart = System.nanoTime();
        try (QueryHandle run = startDistributed(planned, queryId, start, scope)) {
            drain(run);
            done = run.finalPlan().join();
        }
        long execution = System.nanoTime() - executionStart;
        if (format == SessionSettings.ExplainFormat.DOT) {
            return explainResult(DistributedExplain.dot(done), format, start, plan.singleNodePlan(), scope);
        }
        String shown = DistributedExplain.text(done) + timing.breakdown(execution, DistributedExplain.operatorTimes(done));
        return explainResult(shown, format, start, plan.singleNodePlan(), scope);
    }

    /** Runs the query to its end, dropping its rows, so that every node has recorded its metrics (EXPLAIN ANALYZE). */
    private static void drain(QueryHandle run) {
        try (BatchStream results = run.stream()) {
            VectorSchemaRoot batch;
            while ((batch = results.next()) != null) {
                batch.close();
            }
        }
    }

    private DistributedRuntime.Planned planDistributed(ExecutionPlan plan, String queryId, StatementScope scope) {
        return distributed.orElseThrow().plan(plan, scope.settings(), queryId);
    }

    private String nextDistributedQueryId() {
        return "q" + queryIds.incrementAndGet() + "-" + sessionTag;
    }

    /** A handle whose stream dispatches {@code plan}'s stages to the workers and reads the head stage. */
    private QueryHandle startDistributed(DistributedRuntime.Planned plan, String queryId, long start, StatementScope scope) {
        return startDistributed(plan, queryId, start, Optional.empty(), scope);
    }

    /** With a {@code sink}, the handle writes the rows into it and returns their count. */
    private synchronized QueryHandle startDistributed(DistributedRuntime.Planned plan, String queryId, long start, Optional<Function<TaskContext, WriteSink>> sink,
            StatementScope scope) {
        checkOpen();
        DistributedRuntime runtime = distributed.orElseThrow();
        Settings current = scope.settings();
        BufferAllocator queryAllocator = allocator.newChildAllocator(queryId, 0, Long.MAX_VALUE);
        TaskContext context = new TaskContext(queryId, queryAllocator, scope.pool(), executor, ExecutionConfig.of(current),
                runtime.coordinator().headServices());
        RetryingQuery query = runtime.newQuery(queryId, plan, context, current);
        ExecutionPlan root = plan.query().singleNodePlan();
        Schema schema = sink.isPresent() ? WriteSink.COUNT_SCHEMA : root.schema();
        return new QueryHandle(queryId, columnNames(schema), schema, root, context, queryAllocator, output(ctx -> query.start(), sink), start,
                Optional.of(query));
    }

    private static List<String> columnNames(Schema schema) {
        return schema.getFields().stream().map(Field::getName).toList();
    }

    /** The handle's stream: the query's rows, or with a sink the count of rows written into it. */
    private static Function<TaskContext, BatchStream> output(Function<TaskContext, BatchStream> rows, Optional<Function<TaskContext, WriteSink>> sink) {
        return sink.<Function<TaskContext, BatchStream>>map(write -> ctx -> WriteBatchStream.open(rows, write, ctx)).orElse(rows);
    }

    /** Runs {@code plan} (on the workers, if the session has them) into the sink {@code sink} makes. */
    private QueryHandle startWrite(ExecutionPlan plan, Function<TaskContext, WriteSink> sink, long start, StatementScope scope) {
        if (distributed.isEmpty()) {
            return startQuery(plan, start, Optional.of(sink), scope);
        }
        String queryId = nextDistributedQueryId();
        return startDistributed(planDistributed(plan, queryId, scope), queryId, start, Optional.of(sink), scope);
    }

    private ExecutionPlan planQuery(String sql, StatementScope scope) {
        return planQuery(sql, scope, new PlanningTimer());
    }

    private ExecutionPlan planQuery(String sql, StatementScope scope, PlanningTimer timer) {
        synchronized (this) {
            checkOpen();
        }
        return QueryPlanning.plan(catalog, views.snapshot(), scope.settings(), sql, timer);
    }

    private QueryHandle startQuery(ExecutionPlan plan, long start, StatementScope scope) {
        return startQuery(plan, start, Optional.empty(), scope);
    }

    private synchronized QueryHandle startQuery(ExecutionPlan plan, long start, Optional<Function<TaskContext, WriteSink>> sink, StatementScope scope) {
        checkOpen();
        String queryId = "q" + queryIds.incrementAndGet();
        BufferAllocator queryAllocator = allocator.newChildAllocator(queryId, 0, Long.MAX_VALUE);
        TaskContext context = new TaskContext(queryId, queryAllocator, scope.pool(), executor, ExecutionConfig.of(scope.settings()));
        Schema schema = sink.isPresent() ? WriteSink.COUNT_SCHEMA : plan.schema();
        return new QueryHandle(queryId, columnNames(schema), schema, plan, context, queryAllocator,
                output(ctx -> PlanExecutor.executeAll(plan, ctx), sink), start);
    }

    private QueryHandle literalResult(Schema schema, List<List<Object>> rows, long start, StatementScope scope) {
        return literalResult(schema, rows, start, new ValuesExec(schema, rows), scope);
    }

    /** A handle whose rows are already known; {@code plan} is what {@link QueryHandle#plan()} shows. */
    private synchronized QueryHandle literalResult(Schema schema, List<List<Object>> rows, long start, ExecutionPlan plan, StatementScope scope) {
        checkOpen();
        String queryId = "q" + queryIds.incrementAndGet();
        BufferAllocator queryAllocator = allocator.newChildAllocator(queryId, 0, Long.MAX_VALUE);
        TaskContext context = new TaskContext(queryId, queryAllocator, scope.pool(), executor, ExecutionConfig.of(scope.settings()));
        List<String> names = schema.getFields().stream().map(Field::getName).toList();
        return new QueryHandle(queryId, names, schema, plan, context, queryAllocator,
                ctx -> new RowsBatchStream(schema, rows, ctx.allocator()), start);
    }

    private synchronized void applySetting(String name, String value) {
        checkOpen();
        Settings next = settings.with(name, value);
        long limit = next.get(SessionSettings.MEMORY_LIMIT);
        if (limit != settings.get(SessionSettings.MEMORY_LIMIT)) {
            // Queries already running keep reserving from the old pool; it is checked for leaks at close.
            // The session's tables move to the new one (or the SET fails if they do not fit).
            MemoryPool resized = new MemoryPool(limit);
            memoryTables.moveTo(resized);
            retiredPools.add(pool);
            pool = resized;
        }
        settings = next;
    }

    private void createView(Statement.CreateView create, StatementScope scope) {
        Settings current = scope.settings();
        synchronized (this) {
            checkOpen();
        }
        views.create(create, (others, query) -> QueryPlanning.validateView(catalog, others, current, query));
    }

    private synchronized void dropView(Statement.DropView drop) {
        checkOpen();
        views.drop(drop);
    }

    private void checkOpen() {
        if (closed) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "The session is closed");
        }
    }

    /**
     * Stops the session's threads and releases its memory; fails with {@code INTERNAL_ERROR} if a
     * query leaked Arrow memory or memory-pool reservations (for example a handle left open).
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException clusterFailure = null;
        try {
            distributed.ifPresent(DistributedRuntime::close);
        } catch (RuntimeException e) {
            clusterFailure = e;
        }
        executor.close();
        try {
            releaseTables();
        } catch (RuntimeException e) {
            clusterFailure = clusterFailure == null ? e : clusterFailure;
        }
        long leaked = allocator.getAllocatedMemory();
        long reserved = pool.used() + retiredPools.stream().mapToLong(MemoryPool::used).sum();
        String open = allocator.getChildAllocators().isEmpty() ? ""
                : " (open queries: " + allocator.getChildAllocators().stream().map(BufferAllocator::getName).sorted().toList() + ")";
        try {
            allocator.close();
        } catch (RuntimeException e) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "Closing the session found leaked Arrow memory: " + leaked + " bytes" + open, e);
        }
        if (reserved != 0) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "Closing the session found " + reserved + " bytes of memory reservations never released");
        }
        if (clusterFailure != null) {
            throw clusterFailure;
        }
    }

    /** Frees the session's in-memory tables and lets go of its catalog directory (at close); stored tables stay. */
    private void releaseTables() {
        for (TableSource table : catalog.registeredTables()) {
            if (table instanceof InMemoryTable) {
                catalogStatements.forget(table);
            }
        }
        memoryTables.close();
        persistence.ifPresent(CatalogPersistence::close);
    }

    /** The session's own settings ({@code SET} resizes the pool for {@code memory_limit}). */
    private final class OwnScope implements StatementScope {
        @Override
        public Settings settings() {
            return QuerySession.this.settings();
        }

        @Override
        public void set(String name, String value) {
            applySetting(name, value);
        }

        @Override
        public MemoryPool pool() {
            return memoryPool();
        }
    }

    /** What {@link CatalogStatements} uses of this session, in one statement's scope. */
    private final class StatementSession implements CatalogStatements.Session {
        private final StatementScope scope;

        StatementSession(StatementScope scope) {
            this.scope = scope;
        }

        @Override
        public ExecutionPlan plan(String sql) {
            return planQuery(sql, scope);
        }

        @Override
        public QueryHandle rows(Schema schema, List<List<Object>> rows, long start) {
            return literalResult(schema, rows, start, scope);
        }

        @Override
        public QueryHandle write(ExecutionPlan plan, Function<TaskContext, WriteSink> sink, long start) {
            return startWrite(plan, sink, start, scope);
        }

        @Override
        public Map<String, String> views() {
            return views.snapshot();
        }

        @Override
        public Storages storages() {
            return Storages.from(scope.settings());
        }
    }

    /** A catalog without tables, to plan constant queries. */
    private static final class NoTables implements Catalog {
        @Override
        public Optional<TableSource> table(String name) {
            return Optional.empty();
        }

        @Override
        public java.util.Set<String> tableNames() {
            return java.util.Set.of();
        }
    }

    /**
     * Builds a {@link QuerySession}; only the catalog is required. Without workers the session runs
     * queries on one node; with {@link #workers} or {@link #localWorkers} it runs them distributed.
     */
    public static final class Builder {
        private Catalog catalog;
        /** Settings by name as text, in the order given; applied together at {@link #build}. */
        private final Map<String, String> settings = new LinkedHashMap<>();
        private Optional<ClusterSetup.Spec> cluster = Optional.empty();
        private final List<QueryEventListener> listeners = new ArrayList<>();
        private final List<StageEventHandler> stageEventHandlers = new ArrayList<>();
        private final List<TableSource> tables = new ArrayList<>();
        private final TaskEstimators.Builder estimators = TaskEstimators.builder();
        private final List<PlanNodeCodec<?>> nodeCodecs = new ArrayList<>();
        private final List<ExprCodec<?>> exprCodecs = new ArrayList<>();
        private Duration finalizationTimeout = Duration.ofSeconds(60);
        private Optional<Path> catalogDirectory = Optional.empty();
        private ClusterSecurity clusterSecurity = ClusterSecurity.NONE;

        private Builder() {}

        /**
         * The cluster's shared secret: every call to the workers carries its token, and workers started
         * with it refuse calls without it (local workers are started with it). See docs/server.md.
         */
        public Builder clusterSecret(ClusterSecret secret) {
            this.clusterSecurity = clusterSecurity.withSecret(requireNonNull(secret, "secret is null"));
            return this;
        }

        /** Connects to the workers with TLS, trusting the PEM certificates in {@code trusted} (theirs, or their CA's). */
        public Builder workerTlsTrust(Path trusted) {
            this.clusterSecurity = clusterSecurity.trusting(requireNonNull(trusted, "trusted is null"));
            return this;
        }

        /** Local workers serve TLS with {@code certificate} and {@code privateKey} (PEM), and every call to them trusts {@code trusted}. */
        public Builder localWorkerTls(Path certificate, Path privateKey, Path trusted) {
            this.clusterSecurity = clusterSecurity.withTls(certificate, privateKey, trusted);
            return this;
        }

        private ClusterSetup.Spec clusterSpec() {
            return cluster.orElseThrow().with(clusterSecurity);
        }

        public Builder catalog(Catalog catalog) {
            this.catalog = requireNonNull(catalog, "catalog is null");
            return this;
        }

        /** {@link SessionSettings#MEMORY_LIMIT}: bytes the session's memory pool may hand out; default unlimited. */
        public Builder memoryLimit(long bytes) {
            return set(SessionSettings.MEMORY_LIMIT, bytes);
        }

        /** {@link EngineSettings#TARGET_PARTITIONS}: partitions per plan stage (per task, when distributed); default the number of cores. */
        public Builder targetPartitions(int partitions) {
            return set(EngineSettings.TARGET_PARTITIONS, partitions);
        }

        /** {@link EngineSettings#BATCH_SIZE}: rows per batch. */
        public Builder batchSize(int rows) {
            return set(EngineSettings.BATCH_SIZE, rows);
        }

        /**
         * A setting, typed: e.g. {@code set(DistributedSettings.DYNAMIC_TASK_COUNT, true)}. A value the
         * setting does not allow is {@code INVALID_CONFIGURATION} here, naming it.
         */
        public <T> Builder set(Setting<T> setting, T value) {
            if (!SessionSettings.REGISTRY.contains(requireNonNull(setting, "setting is null"))) {
                throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, setting.name() + " is not a session setting (SessionSettings.REGISTRY)");
            }
            return set(setting.name(), setting.format(setting.check(value)));
        }

        /** A setting by name, as {@code SET name = value} would set it (the CLI's {@code --set name=value}). */
        public Builder set(String name, String value) {
            String canonical = SessionSettings.REGISTRY.require(requireNonNull(name, "name is null")).name();
            settings.remove(canonical);
            settings.put(canonical, requireNonNull(value, "value is null"));
            return this;
        }

        /** Several settings by name, applied in order (see {@link #set}). */
        public Builder settings(Map<String, String> values) {
            requireNonNull(values, "values is null").forEach(this::set);
            return this;
        }

        /** Runs queries on these running workers ({@code host:port} each). */
        public Builder workers(List<WorkerAddress> addresses) {
            List<WorkerAddress> copy = List.copyOf(requireNonNull(addresses, "addresses is null"));
            if (copy.isEmpty()) {
                throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "workers(...) needs at least one worker address");
            }
            return workers(new StaticWorkerResolver(copy));
        }

        /**
         * Runs queries on the running workers {@code resolver} names, asked again before every query
         * (a DNS name, a file: {@link dev.quiver.distributed.coordinator.discovery.WorkerResolvers#parse}; docs/cluster.md).
         */
        public Builder workers(WorkerResolver resolver) {
            this.cluster = Optional.of(new ClusterSetup.Spec(Optional.of(requireNonNull(resolver, "resolver is null")), 0, Long.MAX_VALUE, ClusterSecurity.NONE));
            return this;
        }

        /** Starts {@code count} workers in this JVM (real Flight servers on 127.0.0.1), each with an unlimited memory pool. */
        public Builder localWorkers(int count) {
            return localWorkers(count, Long.MAX_VALUE);
        }

        /** Starts {@code count} workers in this JVM, each with a memory pool of {@code memoryLimitPerWorker} bytes. */
        public Builder localWorkers(int count, long memoryLimitPerWorker) {
            if (count < 1) {
                throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "localWorkers needs at least 1 worker, not " + count);
            }
            this.cluster = Optional.of(new ClusterSetup.Spec(Optional.empty(), count, memoryLimitPerWorker, ClusterSecurity.NONE));
            return this;
        }

        /**
         * Keeps the session's views, external table definitions and tables ({@code CREATE TABLE}, as
         * Parquet) in {@code directory} (created if missing), and starts with those a previous session
         * left there, like a DuckDB database file. One session at a time may use a directory: a second
         * one, in this process or another, fails to build with INVALID_CONFIGURATION. See docs/tables.md.
         */
        public Builder catalogDirectory(Path directory) {
            this.catalogDirectory = Optional.of(requireNonNull(directory, "directory is null"));
            return this;
        }

        /** Receives the events of every distributed query of the session, in registration order. */
        public Builder queryEventListener(QueryEventListener listener) {
            listeners.add(requireNonNull(listener, "listener is null"));
            return this;
        }

        /**
         * Receives the stage-built and stage-sampled events of every distributed query (DESIGN §6), in
         * registration order; it may rewrite a producer stage or set its consumer's task count (an
         * exact one is enforced). See docs/exact-consumer-tasks.md.
         */
        public Builder stageEventHandler(StageEventHandler handler) {
            stageEventHandlers.add(requireNonNull(handler, "handler is null"));
            return this;
        }

        /** The last-resort wait for tasks' final reports after a query ended (default 60 s); see {@code metrics_finalization_timeouts}. */
        public Builder finalizationTimeout(Duration timeout) {
            this.finalizationTimeout = requireNonNull(timeout, "timeout is null");
            return this;
        }

        /**
         * A table the session registers when it opens, as {@link QuerySession#registerTable} would; a
         * custom leaf its scan returns wants its {@link #taskEstimator} (to run as more than one task)
         * and its {@link #planNodeCodec} (to run on workers at all).
         */
        public Builder table(TableSource table) {
            tables.add(requireNonNull(table, "table is null"));
            return this;
        }

        /**
         * How the distributed planner (and AQE) spreads a custom leaf over a stage's tasks; it replaces
         * a built-in one for the same leaf class. A leaf without one runs as one task.
         */
        public Builder taskEstimator(TaskEstimator<?> estimator) {
            estimators.add(requireNonNull(estimator, "estimator is null"));
            return this;
        }

        /** Serializes a custom plan node, so that a stage holding it can run on workers (the in-JVM ones get it too). */
        public Builder planNodeCodec(PlanNodeCodec<?> codec) {
            nodeCodecs.add(requireNonNull(codec, "codec is null"));
            return this;
        }

        /** Serializes a custom expression for workers. */
        public Builder exprCodec(ExprCodec<?> codec) {
            exprCodecs.add(requireNonNull(codec, "codec is null"));
            return this;
        }

        /** Everything {@code plugin} contributes: its tables, estimators, codecs and stage-event handlers. */
        public Builder plugin(QuiverPlugin plugin) {
            requireNonNull(plugin, "plugin is null");
            plugin.tables().forEach(this::table);
            plugin.taskEstimators().forEach(this::taskEstimator);
            plugin.planNodeCodecs().forEach(this::planNodeCodec);
            plugin.exprCodecs().forEach(this::exprCodec);
            plugin.stageEventHandlers().forEach(this::stageEventHandler);
            return this;
        }

        /** {@link #plugin} for each of {@code plugins}, e.g. {@code QuiverPlugins.load(classLoader)}. */
        public Builder plugins(List<QuiverPlugin> plugins) {
            requireNonNull(plugins, "plugins is null").forEach(this::plugin);
            return this;
        }

        public QuerySession build() {
            if (catalog == null) {
                throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "A session needs a catalog");
            }
            return new QuerySession(catalog, SessionSettings.REGISTRY.defaults().withAll(settings), this);
        }

        private SessionExtensions extensions() {
            return new SessionExtensions(tables, estimators.build(), nodeCodecs, exprCodecs);
        }
    }

}
