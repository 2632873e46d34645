package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Finds the rows where a value first appears within its group, with the hash table of GROUP BY:
 * what an aggregate over DISTINCT values keeps when rows arrive in order.
 */
public final class FirstOccurrences {
    private FirstOccurrences() {}

    /**
     * For rows {@code [0, rows)}: whether row i is the first row of its group
     * ({@code groupIds[i]}) holding its value ({@code values[i]}; NULL is a value of its own).
     */
    public static boolean[] firstOccurrences(int[] groupIds, FieldVector values, int rows) {
        ArrowType valueType = values.getField().getType();
        GroupHashTable table = new GroupHashTable(List.of(QuiverTypes.INT32, valueType));
        boolean[] first = new boolean[rows];
        try {
            ((LongKeyColumn) table.column(0)).loadValues(groupIds, rows);
            table.column(1).load(values, rows);
            table.ensureCapacity(rows);
            int[] ids = new int[rows];
            table.findOrInsert(rows, ids);
            // ids are dense in order of first appearance: a row is first when its id is the next new one
            int next = 0;
            for (int i = 0; i < rows; i++) {
                if (ids[i] == next) {
                    first[i] = true;
                    next++;
                }
            }
            return first;
        } finally {
            table.clear();
        }
    }

    /** Bytes {@link #firstOccurrences} holds while it runs over {@code rows} rows of {@code valueType}. */
    public static long bytesFor(int rows, ArrowType valueType) {
        GroupHashTable table = new GroupHashTable(List.of(QuiverTypes.INT32, valueType));
        return table.bytesForCapacity(GroupHashTable.capacityFor(rows)) + 5L * rows;
    }
}
