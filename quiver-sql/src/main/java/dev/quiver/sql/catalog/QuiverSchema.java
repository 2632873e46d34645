package dev.quiver.sql.catalog;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.spi.Catalog;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.calcite.linq4j.function.Predicate1;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.lookup.LikePattern;
import org.apache.calcite.schema.lookup.Lookup;
import org.apache.calcite.schema.lookup.Named;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The tables of a Quiver {@link Catalog} plus views, as one Calcite schema. Tables are looked up
 * lazily by name, case-insensitively when the validator asks so; the name a table or view was
 * created with is the name shown. A view hides a table of the same name.
 */
public final class QuiverSchema extends AbstractSchema {
    private final Catalog catalog;
    private final Map<String, String> viewsByLowerName;
    private final Function<String, Table> viewFactory;

    /**
     * @param viewNames the views, by name as written when created
     * @param viewFactory makes the Calcite table of one of {@code viewNames}
     */
    public QuiverSchema(Catalog catalog, Set<String> viewNames, Function<String, Table> viewFactory) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.viewsByLowerName = requireNonNull(viewNames, "viewNames is null").stream()
                .collect(Collectors.toUnmodifiableMap(name -> name.toLowerCase(Locale.ROOT), name -> name, (first, second) -> second));
        this.viewFactory = requireNonNull(viewFactory, "viewFactory is null");
    }

    @Override
    public Lookup<Table> tables() {
        return new Lookup<>() {
            @Override
            public @Nullable Table get(String name) {
                Named<Table> table = find(name);
                return table != null && table.name().equals(name) ? table.entity() : null;
            }

            @Override
            public @Nullable Named<Table> getIgnoreCase(String name) {
                return find(name);
            }

            @Override
            public Set<String> getNames(LikePattern pattern) {
                Predicate1<String> matcher = pattern.matcher();
                return names().stream().filter(matcher::apply).collect(Collectors.toCollection(LinkedHashSet::new));
            }
        };
    }

    private @Nullable Named<Table> find(String name) {
        String view = viewsByLowerName.get(name.toLowerCase(Locale.ROOT));
        if (view != null) {
            return new Named<>(view, viewFactory.apply(view));
        }
        Optional<Named<Table>> table = catalog.table(name).map(source -> new Named<>(source.name(), new QuiverTable(source)));
        return table.orElse(null);
    }

    private Set<String> names() {
        Set<String> names = new LinkedHashSet<>(viewsByLowerName.values());
        for (String table : catalog.tableNames()) {
            if (!viewsByLowerName.containsKey(table.toLowerCase(Locale.ROOT))) {
                names.add(table);
            }
        }
        return names;
    }

    @Override
    protected Map<String, Table> getTableMap() {
        return names().stream().collect(Collectors.toMap(name -> name, name -> requireNonNull(find(name)).entity()));
    }
}
