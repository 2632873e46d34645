package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.TableSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * The catalog a session plans against: the tables registered at run time ({@code CREATE EXTERNAL
 * TABLE}, {@link QuerySession#registerTable}) layered over the catalog the session was built
 * with. Registered names match case-insensitively and may not shadow a base table. Thread-safe:
 * a query plans against the tables registered when it looked them up.
 */
final class SessionCatalog implements Catalog {
    private final Catalog base;
    private final Map<String, TableSource> registered = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    SessionCatalog(Catalog base) {
        this.base = requireNonNull(base, "base is null");
    }

    @Override
    public Optional<TableSource> table(String name) {
        synchronized (registered) {
            TableSource table = registered.get(name);
            if (table != null) {
                return Optional.of(table);
            }
        }
        return base.table(name);
    }

    @Override
    public Set<String> tableNames() {
        Set<String> names = new TreeSet<>(base.tableNames());
        synchronized (registered) {
            registered.values().forEach(table -> names.add(table.name()));
        }
        return names;
    }

    boolean isRegistered(String name) {
        synchronized (registered) {
            return registered.containsKey(name);
        }
    }

    /**
     * Registers {@code table} under its name; an existing registered table is replaced only when
     * {@code replace}. Returns the table it replaced.
     */
    Optional<TableSource> register(TableSource table, boolean replace) {
        requireNonNull(table, "table is null");
        if (base.table(table.name()).isPresent()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT,
                    "'" + table.name() + "' is a table of the session's catalog; choose another name");
        }
        synchronized (registered) {
            if (!replace && registered.containsKey(table.name())) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Table '" + table.name()
                        + "' already exists; use CREATE OR REPLACE or DROP TABLE first");
            }
            return Optional.ofNullable(registered.put(table.name(), table));
        }
    }

    /** Removes a registered table; false when there is none of that name. */
    boolean drop(String name) {
        return remove(name).isPresent();
    }

    /** Removes a registered table and returns it; empty when there is none of that name. */
    Optional<TableSource> remove(String name) {
        if (!isRegistered(name) && base.table(name).isPresent()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT,
                    "'" + name + "' is a table of the session's catalog, not one registered in the session; it cannot be dropped");
        }
        synchronized (registered) {
            return Optional.ofNullable(registered.remove(name));
        }
    }

    /**
     * Replaces registered table {@code name} by {@code change} applied to it, atomically with
     * respect to other registrations; {@code change} may throw to refuse. Returns the new table.
     *
     * @throws QuiverException TABLE_NOT_FOUND when no table of that name is registered
     */
    TableSource update(String name, UnaryOperator<TableSource> change) {
        synchronized (registered) {
            TableSource current = registered.get(name);
            if (current == null) {
                throw new QuiverException(ErrorCode.TABLE_NOT_FOUND, "Table '" + name + "' does not exist (was it dropped while the statement ran?)");
            }
            TableSource next = requireNonNull(change.apply(current), "change gave null");
            registered.put(name, next);
            return next;
        }
    }

    /** The tables registered in the session (not the base catalog's). */
    List<TableSource> registeredTables() {
        synchronized (registered) {
            return List.copyOf(registered.values());
        }
    }
}
