package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.spi.Catalog;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The views of a session ({@code CREATE VIEW}, {@code DROP VIEW}), by name, matched
 * case-insensitively; kept in the catalog directory too when the session has one. Thread-safe: a
 * query plans against a snapshot.
 */
final class SessionViews {
    private final Map<String, String> views = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final Catalog catalog;
    private final Optional<CatalogPersistence> persistence;

    SessionViews(Catalog catalog, Optional<CatalogPersistence> persistence) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.persistence = requireNonNull(persistence, "persistence is null");
    }

    /** The views now, by name (case-insensitive). */
    synchronized Map<String, String> snapshot() {
        Map<String, String> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        copy.putAll(views);
        return copy;
    }

    synchronized boolean contains(String name) {
        return views.containsKey(name);
    }

    /** Adds the views a catalog directory kept, unchecked (their tables may be registered later). */
    synchronized void restore(Map<String, String> kept) {
        views.putAll(kept);
    }

    /**
     * {@code CREATE [OR REPLACE] VIEW}: {@code validate} plans the query against the other views
     * (outside this object's lock, since planning takes time) before it becomes visible.
     */
    void create(Statement.CreateView create, BiConsumer<Map<String, String>, String> validate) {
        Map<String, String> others;
        synchronized (this) {
            if (!create.replace() && views.containsKey(create.name())) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT,
                        "View '" + create.name() + "' already exists; use CREATE OR REPLACE VIEW to change it");
            }
            if (catalog.table(create.name()).isPresent()) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "'" + create.name() + "' is a table of the catalog; choose another view name");
            }
            others = snapshot();
            others.remove(create.name());
        }
        validate.accept(others, create.query());
        synchronized (this) {
            views.put(create.name(), create.query());
            persistence.ifPresent(p -> p.viewCreated(create.name(), create.query()));
        }
    }

    /** {@code DROP VIEW [IF EXISTS]}; a table of that name is pointed to DROP TABLE. */
    synchronized void drop(Statement.DropView drop) {
        if (views.containsKey(drop.name()) || drop.ifExists()) {
            if (views.remove(drop.name()) != null) {
                persistence.ifPresent(p -> p.viewDropped(drop.name()));
            }
            return;
        }
        if (catalog.table(drop.name()).isPresent()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "'" + drop.name() + "' is a table; use DROP TABLE " + drop.name());
        }
        throw new QuiverException(ErrorCode.TABLE_NOT_FOUND, "View '" + drop.name() + "' does not exist");
    }
}
