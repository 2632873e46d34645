package dev.quiver.engine.operator.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

/**
 * The skip-partial-aggregation mode of a PARTIAL {@link HashAggregateExec} whose groups hardly
 * reduce the input: each input batch becomes one batch of state rows, a group of its own per
 * input row, without hashing. The group columns are the key values moved over (zero-copy for
 * plain columns); the state columns come from fresh accumulators updated with group id
 * {@code i} for row {@code i} (SUM's state is the value, COUNT's 1 or 0 for NULL, and so on), so
 * the states are exactly those a hash table would have produced had the rows not collided. The
 * FINAL aggregate merges them as it merges any partial states.
 */
final class PassThrough {
    private final List<PhysicalExpr> groupExprs;
    private final Schema schema;
    private final BufferAllocator allocator;
    private final Accumulator[] accumulators;
    private final List<List<PhysicalExpr>> inputs;
    private final int[] stateCounts;
    private int[] identity = new int[0];

    PassThrough(List<PhysicalExpr> groupExprs, List<AggregateExpr> aggregates, Schema schema, BufferAllocator allocator) {
        this.groupExprs = requireNonNull(groupExprs, "groupExprs is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.accumulators = new Accumulator[aggregates.size()];
        this.inputs = new ArrayList<>(aggregates.size());
        this.stateCounts = new int[aggregates.size()];
        for (int a = 0; a < aggregates.size(); a++) {
            AggregateExpr aggregate = aggregates.get(a);
            accumulators[a] = Accumulators.create(aggregate, AggregateMode.PARTIAL, allocator);
            inputs.add(aggregate.inputs());
            stateCounts[a] = aggregate.stateFields().size();
        }
    }

    /** The state rows of {@code batch}, which the caller still owns and closes. */
    VectorSchemaRoot convert(VectorSchemaRoot batch) {
        int rows = batch.getRowCount();
        List<Field> fields = schema.getFields();
        List<FieldVector> out = new ArrayList<>(fields.size());
        List<FieldVector> owned = new ArrayList<>();
        try {
            for (int k = 0; k < groupExprs.size(); k++) {
                out.add(moveTo(fields.get(k), vector(groupExprs.get(k), batch, owned), rows));
            }
            if (identity.length < rows) {
                identity = new int[rows];
                for (int i = 0; i < rows; i++) {
                    identity[i] = i;
                }
            }
            int field = groupExprs.size();
            for (int a = 0; a < accumulators.length; a++) {
                Accumulator accumulator = accumulators[a];
                List<FieldVector> values = new ArrayList<>(inputs.get(a).size());
                for (PhysicalExpr input : inputs.get(a)) {
                    values.add(vector(input, batch, owned));
                }
                accumulator.ensureCapacity(rows);
                accumulator.update(identity, rows, values);
                accumulator.state(fields.subList(field, field + stateCounts[a]), 0, rows, allocator, out);
                accumulator.clear();
                field += stateCounts[a];
            }
        } catch (RuntimeException e) {
            out.forEach(FieldVector::close);
            throw e;
        } finally {
            owned.forEach(FieldVector::close);
        }
        return Batches.of(schema, out, rows);
    }

    private FieldVector vector(PhysicalExpr expr, VectorSchemaRoot batch, List<FieldVector> owned) {
        if (expr instanceof ColumnExpr column) {
            return batch.getVector(column.index());
        }
        FieldVector vector = expr.evaluate(batch, allocator);
        owned.add(vector);
        return vector;
    }

    /** The first {@code rows} values of {@code source} in a new vector named and typed as {@code field} (buffers shared, not copied). */
    private FieldVector moveTo(Field field, FieldVector source, int rows) {
        FieldVector target = field.createVector(allocator);
        try {
            if (rows == 0) {
                target.allocateNew();
                target.setValueCount(0);
                return target;
            }
            TransferPair pair = source.makeTransferPair(target);
            pair.splitAndTransfer(0, rows);
            return target;
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }
}
