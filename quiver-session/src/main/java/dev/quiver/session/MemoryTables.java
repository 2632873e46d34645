package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.batch.Take;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.memory.MemoryReservation;
import dev.quiver.engine.source.memory.InMemoryTable;
import dev.quiver.engine.source.memory.StoredBatch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The memory of a session's in-memory tables: their batches live in one allocator of the
 * session, and every batch is reserved in the session's memory pool (consumer {@code table
 * NAME}) from the moment it is copied in until its table is dropped. A write that does not fit
 * fails with EXCEEDED_MEMORY_LIMIT and releases what it had copied. Thread-safe.
 */
final class MemoryTables implements AutoCloseable {
    private final BufferAllocator allocator;
    private final Supplier<MemoryPool> pool;
    private final AtomicLong ids = new AtomicLong();
    /** The reservations of each table, by {@link InMemoryTable#id()}. */
    private final Map<Long, List<MemoryReservation>> accounts = new HashMap<>();

    MemoryTables(BufferAllocator parent, Supplier<MemoryPool> pool) {
        this.allocator = requireNonNull(parent, "parent is null").newChildAllocator("session-tables", 0, Long.MAX_VALUE);
        this.pool = requireNonNull(pool, "pool is null");
    }

    /** A new table without rows. */
    InMemoryTable empty(String name, Schema schema) {
        return new InMemoryTable(ids.incrementAndGet(), name, schema, List.of());
    }

    /**
     * A sink that copies batches into this session's table memory; its commit hands them to
     * {@code commit} (which makes them part of a table, or throws to refuse them) and books their
     * reservation to table {@code id}.
     */
    WriteSink sink(long id, String name, Schema schema, Consumer<List<StoredBatch>> commit) {
        return new Sink(id, name, schema, commit);
    }

    /** Frees a dropped (or replaced) table's batches and returns its memory to the pool. */
    void release(InMemoryTable table) {
        table.release();
        List<MemoryReservation> account;
        synchronized (accounts) {
            account = accounts.remove(table.id());
        }
        if (account != null) {
            account.forEach(MemoryReservation::close);
        }
    }

    /**
     * Books every table's reservations in {@code next} (after {@code SET memory_limit}); fails,
     * changing nothing, if the tables do not fit the new limit.
     */
    void moveTo(MemoryPool next) {
        synchronized (accounts) {
            Map<Long, List<MemoryReservation>> moved = new HashMap<>();
            try {
                for (Map.Entry<Long, List<MemoryReservation>> account : accounts.entrySet()) {
                    List<MemoryReservation> copies = new ArrayList<>();
                    moved.put(account.getKey(), copies);
                    for (MemoryReservation reservation : account.getValue()) {
                        MemoryReservation copy = next.newReservation(reservation.consumer());
                        copies.add(copy);
                        copy.grow(reservation.size());
                    }
                }
            } catch (RuntimeException e) {
                moved.values().forEach(copies -> copies.forEach(MemoryReservation::close));
                throw new QuiverException(ErrorCode.EXCEEDED_MEMORY_LIMIT, "The session's tables hold more than the new memory limit allows: "
                        + e.getMessage() + "; drop tables first", e);
            }
            accounts.values().forEach(reservations -> reservations.forEach(MemoryReservation::close));
            accounts.putAll(moved);
        }
    }

    /** Closes the allocator; fails if a table was not released first. */
    @Override
    public void close() {
        synchronized (accounts) {
            accounts.values().forEach(reservations -> reservations.forEach(MemoryReservation::close));
            accounts.clear();
        }
        allocator.close();
    }

    private final class Sink implements WriteSink {
        private final long id;
        private final Schema schema;
        private final Consumer<List<StoredBatch>> commit;
        private final MemoryReservation reservation;
        private final List<StoredBatch> batches = new ArrayList<>();
        private final String name;
        private long rows;
        private boolean done;

        Sink(long id, String name, Schema schema, Consumer<List<StoredBatch>> commit) {
            this.id = id;
            this.name = name;
            this.schema = schema;
            this.commit = commit;
            this.reservation = pool.get().newReservation("table " + name);
        }

        @Override
        public void write(VectorSchemaRoot batch) {
            int count = batch.getRowCount();
            if (count == 0) {
                return;
            }
            NotNullColumns.check(name, schema, batch);
            // the copy is compact: what the pool is asked for is what the table keeps
            reservation.grow(Batches.sizeInBytes(batch));
            VectorSchemaRoot copy = Take.take(schema, batch, IntStream.range(0, count).toArray(), count, allocator);
            StoredBatch stored = new StoredBatch(name, copy);
            batches.add(stored);
            reservation.resize(batches.stream().mapToLong(StoredBatch::bytes).sum());
            rows += count;
        }

        @Override
        public long commit() {
            if (done) {
                throw new IllegalStateException("the write to table " + name + " already ended");
            }
            // booked before the table becomes visible, so that a DROP right after the commit frees it too
            synchronized (accounts) {
                List<MemoryReservation> account = accounts.computeIfAbsent(id, k -> new ArrayList<>());
                account.add(reservation);
                try {
                    commit.accept(batches);
                } catch (RuntimeException e) {
                    account.remove(reservation);
                    if (account.isEmpty()) {
                        accounts.remove(id);
                    }
                    abort();
                    throw e;
                }
            }
            done = true;
            return rows;
        }

        @Override
        public void abort() {
            if (done) {
                return;
            }
            done = true;
            batches.forEach(StoredBatch::release);
            batches.clear();
            reservation.close();
        }
    }
}
