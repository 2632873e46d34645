package dev.quiver.sql.catalog;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.TableSource;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A catalog whose tables are those of another plus the files a query names ({@link FileReference}):
 * a name the base catalog lacks that is a path, a glob or a reading function's call is opened as a
 * file table, once per instance (a planner asks for a table several times). One instance serves
 * one query, so a query sees the files as they were when it was planned. Such tables are not
 * listed in {@link #tableNames()}.
 */
public final class FileReferenceCatalog implements Catalog {
    private final Catalog base;
    private final Storages storages;
    private final Map<String, TableSource> opened = new ConcurrentHashMap<>();

    /** @param storages where the files named in queries are read from */
    public FileReferenceCatalog(Catalog base, Storages storages) {
        this.base = requireNonNull(base, "base is null");
        this.storages = requireNonNull(storages, "storages is null");
    }

    @Override
    public Optional<TableSource> table(String name) {
        Optional<TableSource> table = base.table(name);
        if (table.isPresent()) {
            return table;
        }
        TableSource file = opened.get(name);
        if (file != null) {
            return Optional.of(file);
        }
        Optional<FileReference> reference = FileReference.parse(name);
        if (reference.isEmpty()) {
            return Optional.empty();
        }
        // opening reads footers or samples a CSV: done once, outside the map's lock
        TableSource source = reference.get().open(storages);
        TableSource raced = opened.putIfAbsent(name, source);
        return Optional.of(raced == null ? source : raced);
    }

    @Override
    public Set<String> tableNames() {
        return base.tableNames();
    }
}
