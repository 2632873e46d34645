package dev.quiver.engine.spi;

import java.util.Optional;
import java.util.Set;

/** Named tables. Names match case-insensitively. */
public interface Catalog {
    Optional<TableSource> table(String name);

    Set<String> tableNames();
}
