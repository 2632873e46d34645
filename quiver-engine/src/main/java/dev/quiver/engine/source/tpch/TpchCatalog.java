package dev.quiver.engine.source.tpch;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.TableSource;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The eight TPC-H tables at one scale factor, generated on the fly by {@code io.trino.tpch} (the
 * same data as dbgen). Table names match case-insensitively. At scale factor 0.01 the answers of
 * the 22 queries are the {@code io/trino/tpch/queries/qN.result} files of that library.
 */
public final class TpchCatalog implements Catalog {
    private final double scaleFactor;
    private final Map<String, TpchTableSource> tables;

    public TpchCatalog(double scaleFactor) {
        if (!(scaleFactor > 0) || Double.isInfinite(scaleFactor)) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "TPC-H scale factor must be a positive number, got " + scaleFactor);
        }
        this.scaleFactor = scaleFactor;
        Map<String, TpchTableSource> byName = new TreeMap<>();
        for (TpchTableDef<?> table : TpchTables.ALL) {
            byName.put(table.name(), new TpchTableSource(table, scaleFactor));
        }
        this.tables = Map.copyOf(byName);
    }

    public double scaleFactor() {
        return scaleFactor;
    }

    @Override
    public Optional<TableSource> table(String name) {
        return Optional.ofNullable(tables.get(name.toLowerCase(Locale.ROOT)));
    }

    @Override
    public Set<String> tableNames() {
        return new TreeSet<>(tables.keySet());
    }

    @Override
    public String toString() {
        return "TpchCatalog(sf=" + scaleFactor + ")";
    }
}
