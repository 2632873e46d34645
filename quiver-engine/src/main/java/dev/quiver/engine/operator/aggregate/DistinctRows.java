package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.memory.MemoryReservation;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The set of distinct rows seen so far, on the aggregate's hash table (NULLs equal, as in GROUP BY):
 * {@link #add} tells which rows of a batch were not seen before, neither earlier nor in the same
 * batch. Its memory is held in the caller's reservation, grown before the table grows.
 */
public final class DistinctRows {
    private final GroupHashTable table;
    private final int columns;
    private final MemoryReservation reservation;
    private int[] groupIds = new int[0];

    public DistinctRows(Schema schema, MemoryReservation reservation) {
        this.columns = schema.getFields().size();
        this.table = new GroupHashTable(schema.getFields().stream().map(Field::getType).toList());
        this.reservation = reservation;
    }

    /** The row numbers of {@code batch} (ascending) whose rows were not seen before; adds them to the set. */
    public int[] add(VectorSchemaRoot batch) {
        int rows = batch.getRowCount();
        if (rows == 0) {
            return new int[0];
        }
        for (int c = 0; c < columns; c++) {
            table.column(c).load(batch.getVector(c), rows);
        }
        int before = table.groupCount();
        int capacity = Math.max(table.capacity(), GroupHashTable.capacityFor(before + rows));
        reservation.resize(table.bytesForCapacity(capacity));
        table.ensureCapacity(before + rows);
        if (groupIds.length < rows) {
            groupIds = new int[rows];
        }
        table.findOrInsert(rows, groupIds);
        reservation.resize(table.sizeInBytes());
        // group ids are dense in order of first appearance: a row is new when it takes the next unseen id
        int[] fresh = new int[table.groupCount() - before];
        int next = before;
        for (int i = 0; i < rows && next < table.groupCount(); i++) {
            if (groupIds[i] == next) {
                fresh[next++ - before] = i;
            }
        }
        return fresh;
    }

    public int size() {
        return table.groupCount();
    }
}
