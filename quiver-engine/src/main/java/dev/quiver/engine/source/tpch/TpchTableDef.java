package dev.quiver.engine.source.tpch;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.stats.Estimate;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A TPC-H table as Quiver sees it: the generator, the columns and how many rows a part holds.
 *
 * @param name the table name, lower case
 * @param generator the io.trino.tpch table that generates the rows
 * @param columns the columns in the standard order
 * @param rowCounter row count of one part of the table at a scale factor
 */
record TpchTableDef<E extends TpchEntity>(String name, TpchTable<E> generator, List<TpchColumnDef<E>> columns, RowCounter rowCounter) {
    TpchTableDef {
        requireNonNull(name, "name is null");
        requireNonNull(generator, "generator is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(rowCounter, "rowCounter is null");
    }

    /** Rows of part {@code part} (1-based) of {@code partCount} at scale factor {@code sf}. */
    @FunctionalInterface
    interface RowCounter {
        Estimate rows(double sf, int part, int partCount);
    }

    Schema schema() {
        return new Schema(columns.stream().map(TpchColumnDef::field).toList());
    }

    Estimate rowCount(double sf) {
        return rowCounter.rows(sf, 1, 1);
    }

    /**
     * How many parts (and so partitions) the table is generated in when {@code target} are wanted:
     * the generator puts all of a fixed-size table (nation, region) in part 1.
     */
    int partCount(int target) {
        return generator == TpchTable.NATION || generator == TpchTable.REGION ? 1 : target;
    }

    Iterable<E> generate(double sf, int part, int partCount) {
        return generator.createGenerator(sf, part, partCount);
    }
}
