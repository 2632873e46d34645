package dev.quiver.session.sqllogic;

import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.TableSource;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** A catalog of given tables, names matched case-insensitively. */
final class TableListCatalog implements Catalog {
    private final Map<String, TableSource> tables = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    TableListCatalog(List<TableSource> tables) {
        tables.forEach(table -> this.tables.put(table.name(), table));
    }

    @Override
    public Optional<TableSource> table(String name) {
        return Optional.ofNullable(tables.get(name));
    }

    @Override
    public Set<String> tableNames() {
        return Collections.unmodifiableSet(tables.keySet());
    }
}
