package dev.quiver.cli;

import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.TableSource;
import java.util.Optional;
import java.util.Set;

/** The catalog of {@code quiver sql} without {@code --tpch}: no tables, for VALUES and constant queries. */
final class EmptyCatalog implements Catalog {
    @Override
    public Optional<TableSource> table(String name) {
        return Optional.empty();
    }

    @Override
    public Set<String> tableNames() {
        return Set.of();
    }
}
