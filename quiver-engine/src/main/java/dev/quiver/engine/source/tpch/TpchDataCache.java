package dev.quiver.engine.source.tpch;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.metrics.PartitionMetrics;
import io.trino.tpch.TpchEntity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Generated TPC-H columns kept in memory by one {@link TpchCatalog}, so that repeated scans (a
 * benchmark's runs, a test suite's queries) do not pay for generation again: at scale factor 1,
 * generating lineitem takes seconds, far more than the queries over it.
 *
 * <h2>What is kept</h2>
 * Per table part (table, part, part count) the columns scans have asked for, as Arrow vectors in
 * batches of the size the first scan of that part used. A scan that needs a column not yet kept
 * generates the part again and keeps the missing columns.
 *
 * <h2>Memory</h2>
 * The vectors live in the cache's own {@link RootAllocator}, limited to the size given at
 * construction; {@link #allocatedBytes()} reports its use. They are not in any query's memory
 * pool: they are the catalog's storage, as a table held by a database is. Scans hand queries
 * vectors of the query's allocator over this memory, not copies: each buffer holds a reference on
 * the cache's until the query closes it, and is charged to the query's allocator meanwhile, so
 * batches handed to queries belong to the query like any other (and, like any batch, are never
 * written to). When a part does not fit under the
 * limit, it is not kept, and this and later scans needing its missing columns generate it as if
 * there were no cache. Nothing is evicted.
 *
 * <p>Thread-safe: different parts fill concurrently; scans of the same part wait for its fill.
 * {@link #close()} must come after the queries using the catalog have ended.
 */
final class TpchDataCache implements AutoCloseable {
    private final BufferAllocator allocator;
    private final Map<PartKey, CachedPart> parts = new ConcurrentHashMap<>();

    TpchDataCache(long limitBytes) {
        this.allocator = new RootAllocator(limitBytes);
    }

    long allocatedBytes() {
        return allocator.getAllocatedMemory();
    }

    long limitBytes() {
        return allocator.getLimit();
    }

    /**
     * The part's batches holding (at least) {@code columns}, generating and keeping the columns not
     * yet kept; empty when they do not fit under the limit. The returned batches stay owned by the
     * cache: callers share them (never write to them) and never close them.
     */
    <E extends TpchEntity> Optional<CachedPart> part(TpchTableDef<E> table, double scaleFactor, int part, int partCount,
            List<Integer> columns, int batchSize, PartitionMetrics metrics) {
        CachedPart cached = parts.computeIfAbsent(new PartKey(table.name(), part, partCount), key -> new CachedPart(batchSize));
        return cached.ensure(table, scaleFactor, part, partCount, columns, metrics) ? Optional.of(cached) : Optional.empty();
    }

    @Override
    public void close() {
        parts.values().forEach(CachedPart::close);
        parts.clear();
        allocator.close();
    }

    private record PartKey(String table, int part, int partCount) {}

    /** The kept columns of one part, by table column index; each a list of vectors, one per batch. */
    final class CachedPart {
        private final int batchSize;
        private final Map<Integer, List<FieldVector>> columns = new ConcurrentHashMap<>();
        private volatile List<Integer> batchRows;
        /** Set when a fill did not fit: later scans of missing columns generate directly instead of trying again. */
        private boolean overflowed;

        private CachedPart(int batchSize) {
            this.batchSize = batchSize;
        }

        /** Rows of each batch. */
        List<Integer> batchRows() {
            return batchRows;
        }

        /** Batch {@code batch} of table column {@code column}; owned by the cache. */
        FieldVector vector(int column, int batch) {
            return columns.get(column).get(batch);
        }

        private synchronized <E extends TpchEntity> boolean ensure(TpchTableDef<E> table, double scaleFactor, int part, int partCount,
                List<Integer> wanted, PartitionMetrics metrics) {
            List<Integer> missing = wanted.stream().distinct().filter(c -> !columns.containsKey(c)).toList();
            if (missing.isEmpty() && batchRows != null) {
                return true;
            }
            if (overflowed) {
                return false;
            }
            List<TpchColumnDef<E>> defs = missing.stream().map(table.columns()::get).toList();
            Schema schema = new Schema(defs.stream().map(TpchColumnDef::field).toList());
            List<VectorSchemaRoot> batches = new ArrayList<>();
            try (TpchPartitionStream<E> stream = new TpchPartitionStream<>(schema, defs,
                    () -> table.generate(scaleFactor, part, partCount).iterator(), allocator, batchSize, metrics)) {
                for (VectorSchemaRoot batch = stream.next(); batch != null; batch = stream.next()) {
                    batches.add(batch);
                }
            } catch (OutOfMemoryException e) {
                batches.forEach(VectorSchemaRoot::close);
                overflowed = true;
                return false;
            }
            List<Integer> rows = batches.stream().map(VectorSchemaRoot::getRowCount).toList();
            if (batchRows == null) {
                batchRows = rows;
            }
            for (int i = 0; i < missing.size(); i++) {
                int index = i;
                columns.put(missing.get(i), batches.stream().map(batch -> batch.getVector(index)).toList());
            }
            return true;
        }

        private synchronized void close() {
            columns.values().forEach(vectors -> vectors.forEach(FieldVector::close));
            columns.clear();
        }
    }
}
