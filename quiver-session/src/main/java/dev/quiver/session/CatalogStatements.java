package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.source.files.FileOptions;
import dev.quiver.engine.source.files.FileTables;
import dev.quiver.engine.source.memory.InMemoryTable;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.types.QuiverTypes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Runs the {@link Statement.CatalogStatement}s: {@code SHOW TABLES}, {@code DESCRIBE}, and the
 * statements that make, fill, drop and export tables. Tables made by {@code CREATE TABLE} are
 * {@link InMemoryTable}s whose memory {@link MemoryTables} accounts.
 */
final class CatalogStatements {
    /** What these statements need of their session. */
    interface Session {
        /** The physical plan of a query, planned with the session's settings and views. */
        ExecutionPlan plan(String sql);

        /** A result whose rows are known. */
        QueryHandle rows(Schema schema, List<List<Object>> rows, long start);

        /** A handle whose stream runs {@code plan} into the sink {@code sink} makes, and returns the count. */
        QueryHandle write(ExecutionPlan plan, Function<TaskContext, WriteSink> sink, long start);

        /** The session's views by name (a snapshot). */
        Map<String, String> views();

        /** Where the session reads and writes files, for its settings. */
        Storages storages();
    }

    private final SessionCatalog catalog;
    private final MemoryTables memory;
    private final Optional<CatalogPersistence> persistence;
    private final Session session;

    CatalogStatements(SessionCatalog catalog, MemoryTables memory, Optional<CatalogPersistence> persistence, Session session) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.memory = requireNonNull(memory, "memory is null");
        this.persistence = requireNonNull(persistence, "persistence is null");
        this.session = requireNonNull(session, "session is null");
    }

    QueryHandle execute(Statement.CatalogStatement statement, long start) {
        if (statement instanceof Statement.ShowTables) {
            return session.rows(Introspection.SHOW_TABLES, Introspection.tableNames(catalog, session.views().keySet()), start);
        }
        if (statement instanceof Statement.DescribeTable describe) {
            return session.rows(Introspection.DESCRIBE, Introspection.columns(describedColumns(describe.name())), start);
        }
        if (statement instanceof Statement.DescribeQuery describe) {
            return session.rows(Introspection.DESCRIBE, Introspection.columns(session.plan(describe.query()).schema()), start);
        }
        if (statement instanceof Statement.CreateTable create) {
            return createTable(create, start);
        }
        if (statement instanceof Statement.CreateTableAs create) {
            return createTableAs(create, start);
        }
        if (statement instanceof Statement.Insert insert) {
            return insert(insert, start);
        }
        if (statement instanceof Statement.CopyTo copy) {
            return copy(copy, start);
        }
        return dropTable((Statement.DropTable) statement, start);
    }

    /** {@code CREATE EXTERNAL TABLE}; {@code sql} is the statement as written, which a catalog directory keeps. */
    void createExternalTable(Statement.CreateExternalTable create, String sql) {
        if (session.views().containsKey(create.name())) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "'" + create.name() + "' is a view; choose another table name");
        }
        if (create.ifNotExists() && catalog.isRegistered(create.name())) {
            return;
        }
        // opens the files (reading footers or a CSV sample) outside any lock
        TableSource table = openExternalTable(session.storages(), create);
        Optional<TableSource> replaced = catalog.register(table, create.replace());
        persistence.ifPresent(p -> p.externalTableCreated(table.name(), sql, table.schema()));
        replaced.ifPresent(this::forget);
    }

    private static TableSource openExternalTable(Storages storages, Statement.CreateExternalTable create) {
        return FileTables.open(storages, create.name(), List.of(create.location()), create.format(), create.columns(), new FileOptions(create.options()));
    }

    /** An external table of a catalog directory, opened by running the statement that made it. */
    static TableSource openExternalTable(Storages storages, String statement) {
        if (!(StatementParser.parse(statement) instanceof Statement.CreateExternalTable create)) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "not a CREATE EXTERNAL TABLE statement: " + statement);
        }
        return openExternalTable(storages, create);
    }

    /** Frees a table that left the catalog (dropped, or replaced by CREATE OR REPLACE): its memory, or its files in the catalog directory. */
    void forget(TableSource table) {
        if (table instanceof InMemoryTable held) {
            memory.release(held);
        } else if (table instanceof StoredTable stored) {
            persistence.orElseThrow().stored().delete(stored);
        }
    }

    /** Whether a new table of this statement goes to the catalog directory rather than memory. */
    private boolean stores(Statement.CreateMode mode) {
        return persistence.isPresent() && !mode.temporary();
    }

    /** A table's own columns (it need not be readable: a catalog directory's table whose files are gone); a view's as planned. */
    private Schema describedColumns(List<String> name) {
        if (name.size() == 1 && !session.views().containsKey(name.get(0))) {
            return catalog.table(name.get(0)).orElseThrow(() -> notFound(name.get(0))).schema();
        }
        try {
            return session.plan("SELECT * FROM " + CatalogStatementParser.quoted(name)).schema();
        } catch (QuiverException e) {
            throw e.errorCode() == ErrorCode.TABLE_NOT_FOUND ? notFound(String.join(".", name)) : e;
        }
    }

    private QueryHandle createTable(Statement.CreateTable create, long start) {
        if (!mayCreate(create.name(), create.mode())) {
            return done(start);
        }
        if (stores(create.mode())) {
            persistence.orElseThrow().stored().create(create.name(), create.columns(), table -> publish(table, create.mode())).commit();
        } else {
            register(memory.empty(create.name(), create.columns()), create.mode());
        }
        return done(start);
    }

    private QueryHandle createTableAs(Statement.CreateTableAs create, long start) {
        if (!mayCreate(create.name(), create.mode())) {
            return done(start);
        }
        ExecutionPlan rows = storable(session.plan(create.query()), create.name());
        if (stores(create.mode())) {
            StoredTables stored = persistence.orElseThrow().stored();
            return session.write(rows, ctx -> stored.create(create.name(), rows.schema(), table -> publish(table, create.mode())), start);
        }
        InMemoryTable empty = memory.empty(create.name(), rows.schema());
        return session.write(rows, ctx -> memory.sink(empty.id(), empty.name(), empty.schema(),
                batches -> register(empty.withAppended(batches), create.mode())), start);
    }

    private QueryHandle insert(Statement.Insert insert, long start) {
        TableSource target = insertTarget(insert.table());
        ExecutionPlan query = session.plan(insert.query());
        Optional<List<String>> columns = insert.byName()
                ? Optional.of(query.schema().getFields().stream().map(Field::getName).toList()) : insert.columns();
        ExecutionPlan rows = InsertColumns.fit(query, target.name(), target.schema(), columns);
        if (target instanceof StoredTable stored) {
            return session.write(rows, ctx -> persistence.orElseThrow().stored().append(stored,
                    step -> catalog.update(stored.name(), current -> {
                        if (!(current instanceof StoredTable table) || !table.directoryName().equals(stored.directoryName())) {
                            throw changedWhileInserting(stored.name());
                        }
                        return step.get();
                    })), start);
        }
        InMemoryTable held = (InMemoryTable) target;
        return session.write(rows, ctx -> memory.sink(held.id(), held.name(), held.schema(),
                batches -> catalog.update(held.name(), current -> {
                    if (!(current instanceof InMemoryTable table) || table.id() != held.id()) {
                        throw changedWhileInserting(held.name());
                    }
                    return table.withAppended(batches);
                })), start);
    }

    private static QuiverException changedWhileInserting(String table) {
        return new QuiverException(ErrorCode.TABLE_NOT_FOUND, "Table " + table + " was dropped or replaced while the INSERT ran; nothing was inserted");
    }

    private QueryHandle copy(Statement.CopyTo copy, long start) {
        ExecutionPlan query = session.plan(copy.query());
        Location location = Location.of(copy.path().endsWith("/") && Location.hasScheme(copy.path()) ? copy.path().substring(0, copy.path().length() - 1)
                : copy.path());
        if (!location.isLocal()) {
            Storages storages = session.storages();
            Location target = copy.path().endsWith("/") ? new Location(copy.path()) : location;
            ObjectStoreCopySink.check(storages, location, copy.options());
            return session.write(query, ctx -> ObjectStoreCopySink.open(storages, target, query.schema(), copy.options(), ctx.allocator()), start);
        }
        Path target = Path.of(copy.path());
        FileCopySink.check(target, query.schema(), copy.options());
        return session.write(query, ctx -> FileCopySink.open(target, query.schema(), copy.options(), ctx.allocator()), start);
    }

    private QueryHandle dropTable(Statement.DropTable drop, long start) {
        if (session.views().containsKey(drop.name())) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "'" + drop.name() + "' is a view; use DROP VIEW " + drop.name());
        }
        Optional<TableSource> removed = catalog.remove(drop.name());
        if (removed.isEmpty() && !drop.ifExists()) {
            throw notFound(drop.name());
        }
        // the catalog directory stops listing the table before its files go, so a crash in between leaves no dangling entry
        removed.ifPresent(table -> persistence.ifPresent(p -> p.tableRemoved(table.name())));
        removed.ifPresent(this::forget);
        return done(start);
    }

    /** Whether a CREATE TABLE of {@code name} goes ahead: false for IF NOT EXISTS over an existing table; throws when it may not. */
    private boolean mayCreate(String name, Statement.CreateMode mode) {
        if (session.views().containsKey(name)) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "'" + name + "' is a view; DROP VIEW " + name + " first or choose another name");
        }
        if (catalog.table(name).isEmpty()) {
            return true;
        }
        if (mode.ifNotExists()) {
            return false;
        }
        if (!catalog.isRegistered(name)) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Table '" + name + "' already exists in the session's catalog; choose another name");
        }
        if (!mode.replace()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Table '" + name + "' already exists; use CREATE OR REPLACE TABLE, or DROP TABLE "
                    + name + " first");
        }
        return true;
    }

    /** Registers an in-memory table; in a session with a catalog directory, that name no longer stands for a stored table. */
    private void register(InMemoryTable table, Statement.CreateMode mode) {
        Optional<TableSource> previous = catalog.register(table, mode.replace());
        persistence.ifPresent(p -> p.tableRemoved(table.name()));
        previous.ifPresent(this::forget);
    }

    /** Registers a stored table and records it in the catalog directory, undoing the registration if that fails. */
    private void publish(StoredTable table, Statement.CreateMode mode) {
        Optional<TableSource> previous = catalog.register(table, mode.replace());
        try {
            persistence.orElseThrow().storedTableCreated(table);
        } catch (RuntimeException e) {
            catalog.update(table.name(), current -> previous.orElse(current));
            if (previous.isEmpty()) {
                catalog.remove(table.name());
            }
            throw e;
        }
        previous.ifPresent(this::forget);
    }

    private TableSource insertTarget(String name) {
        if (session.views().containsKey(name)) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "'" + name + "' is a view; INSERT writes tables made by CREATE TABLE");
        }
        TableSource table = catalog.table(name).orElseThrow(() -> notFound(name));
        if (!(table instanceof InMemoryTable) && !(table instanceof StoredTable)) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "Table " + table.name()
                    + " reads files or another catalog; INSERT writes tables made by CREATE TABLE (e.g. CREATE TABLE copy AS SELECT * FROM "
                    + table.name() + ")");
        }
        return table;
    }

    /**
     * The query as the rows of a new table: every column nullable (as a CREATE TABLE AS in DuckDB
     * and PostgreSQL), a column of NULLs typed INTEGER, and no two columns of one name.
     */
    private static ExecutionPlan storable(ExecutionPlan query, String table) {
        List<Field> fields = query.schema().getFields();
        List<PhysicalExpr> exprs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int c = 0; c < fields.size(); c++) {
            Field field = fields.get(c);
            if (!seen.add(field.getName().toLowerCase(Locale.ROOT))) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "CREATE TABLE " + table + " AS: the query has two columns named "
                        + field.getName() + "; name one apart with AS");
            }
            names.add(field.getName());
            exprs.add(field.getType() instanceof ArrowType.Null ? new LiteralExpr(null, QuiverTypes.INT32)
                    : new ColumnExpr(c, field.getName(), field.getType(), true));
        }
        return new ProjectionExec(exprs, names, query);
    }

    private QueryHandle done(long start) {
        return session.rows(new Schema(List.of()), List.of(), start);
    }

    private static QuiverException notFound(String name) {
        return new QuiverException(ErrorCode.TABLE_NOT_FOUND, "Table '" + name + "' does not exist");
    }
}
