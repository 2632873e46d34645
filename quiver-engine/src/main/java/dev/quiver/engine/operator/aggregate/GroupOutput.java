package dev.quiver.engine.operator.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes a range of the groups a hash aggregate partition holds as a batch: their keys, then each
 * aggregate's final value ({@link #values}, FINAL and SINGLE output) or its partial state
 * ({@link #states}: PARTIAL output, and what a spilling aggregate writes to disk). Reads the
 * accumulators through the partition's own array, whose elements the partition may replace.
 */
final class GroupOutput {
    /** Null without GROUP BY. */
    private final GroupHashTable table;
    private final Accumulator[] accumulators;
    private final List<AggregateExpr> aggregates;
    private final int keyCount;
    private final BufferAllocator allocator;

    GroupOutput(GroupHashTable table, Accumulator[] accumulators, List<AggregateExpr> aggregates, int keyCount, BufferAllocator allocator) {
        this.table = table;
        this.accumulators = requireNonNull(accumulators, "accumulators is null");
        this.aggregates = requireNonNull(aggregates, "aggregates is null");
        this.keyCount = keyCount;
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /** The keys and final values of groups {@code [from, from + count)}, as a batch of {@code schema}. */
    VectorSchemaRoot values(Schema schema, int from, int count) {
        return write(schema, from, count, false);
    }

    /**
     * The keys and partial states of groups {@code [from, from + count)}, as a batch of
     * {@code schema} (the fields of {@link HashAggregateExec#stateSchema()}).
     */
    VectorSchemaRoot states(Schema schema, int from, int count) {
        return write(schema, from, count, true);
    }

    private VectorSchemaRoot write(Schema schema, int from, int count, boolean states) {
        List<Field> fields = schema.getFields();
        List<FieldVector> vectors = new ArrayList<>(fields.size());
        try {
            int field = 0;
            if (table != null) {
                table.output(fields.subList(0, keyCount), from, count, allocator, vectors);
                field = keyCount;
            }
            for (int a = 0; a < accumulators.length; a++) {
                if (states) {
                    int stateCount = aggregates.get(a).stateFields().size();
                    accumulators[a].state(fields.subList(field, field + stateCount), from, count, allocator, vectors);
                    field += stateCount;
                } else {
                    vectors.add(accumulators[a].evaluate(fields.get(field++), from, count, allocator));
                }
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return Batches.of(schema, vectors, count);
    }
}
