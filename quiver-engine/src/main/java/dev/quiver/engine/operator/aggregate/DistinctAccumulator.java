package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.batch.Take;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * An aggregate over DISTINCT argument values (SINGLE mode only): a hash table over
 * {@code (group id, value)} pairs of the first input lets each pair reach the wrapped accumulator
 * once, with the inputs of the row where it first appears.
 */
final class DistinctAccumulator extends Accumulator {
    private final Accumulator inner;
    private final GroupHashTable seen;
    private final BufferAllocator allocator;
    private int[] pairIds = new int[0];
    private int[] selectedRows = new int[0];
    private int[] selectedGroups = new int[0];
    private boolean[] claimed = new boolean[0];

    DistinctAccumulator(Accumulator inner, ArrowType argType, BufferAllocator allocator) {
        this.inner = inner;
        this.seen = new GroupHashTable(List.of(QuiverTypes.INT32, argType));
        this.allocator = allocator;
    }

    @Override
    protected void grow(int newCapacity) {
        if (newCapacity == 0) {
            inner.clear();
            seen.clear();
        } else {
            inner.ensureCapacity(newCapacity);
        }
    }

    @Override
    public int bytesPerGroup() {
        return inner.bytesPerGroup();
    }

    @Override
    public long variableBytes() {
        return inner.variableBytes() + seen.sizeInBytes();
    }

    @Override
    public void update(int[] groupIds, int rows, List<FieldVector> inputs) {
        FieldVector arg = inputs.get(0);
        if (pairIds.length < rows) {
            pairIds = new int[rows];
            selectedRows = new int[rows];
            selectedGroups = new int[rows];
            claimed = new boolean[rows];
        }
        ((LongKeyColumn) seen.column(0)).loadValues(groupIds, rows);
        seen.column(1).load(arg, rows);
        int before = seen.groupCount();
        seen.ensureCapacity(before + rows);
        seen.findOrInsert(rows, pairIds);
        Arrays.fill(claimed, 0, rows, false);
        int selected = 0;
        for (int i = 0; i < rows; i++) {
            int fresh = pairIds[i] - before;
            if (fresh >= 0 && !claimed[fresh]) {
                claimed[fresh] = true;
                selectedRows[selected] = i;
                selectedGroups[selected++] = groupIds[i];
            }
        }
        if (selected == 0) {
            return;
        }
        List<FieldVector> taken = new ArrayList<>(inputs.size());
        try {
            for (FieldVector input : inputs) {
                taken.add(Take.take(input, selectedRows, selected, allocator));
            }
            inner.update(selectedGroups, selected, taken);
        } finally {
            taken.forEach(FieldVector::close);
        }
    }

    @Override
    public void merge(int[] groupIds, int rows, List<FieldVector> states) {
        throw new IllegalStateException("DISTINCT aggregates have no partial state");
    }

    @Override
    public void state(List<Field> fields, int from, int count, BufferAllocator allocator, List<FieldVector> out) {
        throw new IllegalStateException("DISTINCT aggregates have no partial state");
    }

    @Override
    public FieldVector evaluate(Field field, int from, int count, BufferAllocator allocator) {
        return inner.evaluate(field, from, count, allocator);
    }
}
