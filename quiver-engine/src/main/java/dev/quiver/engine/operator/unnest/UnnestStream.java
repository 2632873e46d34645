package dev.quiver.engine.operator.unnest;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.batch.Take;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One partition of {@link UnnestExec}. States:
 * <pre>
 *   NEED_INPUT --(input batch)--> EMITTING --(batch used up: closed)--> NEED_INPUT
 *   NEED_INPUT --(end of input)--> DONE
 * </pre>
 * While EMITTING it walks the current batch row by row and, within a row, element by element,
 * gathering at most a batch size of output rows per call: the row index for the input columns
 * and, per list, the element's index in the list's data vector ({@code -1}, a NULL, past its end).
 */
final class UnnestStream implements BatchStream {
    private enum State { NEED_INPUT, EMITTING, DONE }

    private final BatchStream inputStream;
    private final Schema schema;
    /** The input columns passed on, repeated per element. */
    private final List<Integer> passed;
    private final List<Integer> lists;
    private final TaskContext context;
    private final PartitionMetrics metrics;
    private State state = State.NEED_INPUT;
    private VectorSchemaRoot current;
    /** Per input row of the current batch: how many output rows it gives (its longest list's length). */
    private int[] counts;
    private int row;
    /** The next element of the current row to emit. */
    private int element;

    UnnestStream(BatchStream inputStream, Schema schema, List<Integer> passed, List<Integer> lists, TaskContext context, PartitionMetrics metrics) {
        this.inputStream = requireNonNull(inputStream, "inputStream is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.passed = requireNonNull(passed, "passed is null");
        this.lists = requireNonNull(lists, "lists is null");
        this.context = requireNonNull(context, "context is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public VectorSchemaRoot next() {
        while (state != State.DONE) {
            if (state == State.NEED_INPUT) {
                current = inputStream.next();
                if (current == null) {
                    state = State.DONE;
                    return null;
                }
                long start = System.nanoTime();
                counts = counts(current);
                row = 0;
                element = 0;
                state = State.EMITTING;
                metrics.addElapsedCompute(System.nanoTime() - start);
            }
            long start = System.nanoTime();
            VectorSchemaRoot out;
            try {
                out = emit();
            } finally {
                metrics.addElapsedCompute(System.nanoTime() - start);
            }
            if (out != null) {
                return out;
            }
            context.checkCancelled();
        }
        return null;
    }

    /** The longest list's length of each row (0 for NULL lists). */
    private int[] counts(VectorSchemaRoot batch) {
        int rows = batch.getRowCount();
        int[] longest = new int[rows];
        for (int column : lists) {
            ListVector list = (ListVector) batch.getVector(column);
            ArrowBuf offsets = list.getOffsetBuffer();
            for (int i = 0; i < rows; i++) {
                if (!list.isNull(i)) {
                    longest[i] = Math.max(longest[i], offsets.getInt((long) (i + 1) * 4) - offsets.getInt((long) i * 4));
                }
            }
        }
        return longest;
    }

    /** The next output rows of the current batch (closing it once used up), or null when it had none left. */
    private VectorSchemaRoot emit() {
        int rows = current.getRowCount();
        int capacity = context.batchSize();
        int[] inputRows = new int[capacity];
        int[][] elements = new int[lists.size()][capacity];
        ListVector[] vectors = new ListVector[lists.size()];
        for (int l = 0; l < lists.size(); l++) {
            vectors[l] = (ListVector) current.getVector(lists.get(l));
        }
        int filled = 0;
        skipUsedRows(rows);
        while (filled < capacity && row < rows) {
            inputRows[filled] = row;
            for (int l = 0; l < vectors.length; l++) {
                elements[l][filled] = elementIndex(vectors[l], row, element);
            }
            filled++;
            element++;
            skipUsedRows(rows);
        }
        VectorSchemaRoot out = filled > 0 ? gather(inputRows, elements, vectors, filled) : null;
        if (row >= rows) {
            current.close();
            current = null;
            state = State.NEED_INPUT;
        }
        return out;
    }

    /** Moves past the rows whose elements have all been emitted (and those that have none). */
    private void skipUsedRows(int rows) {
        while (row < rows && element >= counts[row]) {
            row++;
            element = 0;
        }
    }

    /** The index in the data vector of element {@code e} of row {@code row}'s list; -1 (NULL) past its end or for a NULL list. */
    private static int elementIndex(ListVector list, int row, int e) {
        if (list.isNull(row)) {
            return -1;
        }
        ArrowBuf offsets = list.getOffsetBuffer();
        int start = offsets.getInt((long) row * 4);
        return start + e < offsets.getInt((long) (row + 1) * 4) ? start + e : -1;
    }

    private VectorSchemaRoot gather(int[] inputRows, int[][] elements, ListVector[] vectors, int count) {
        List<FieldVector> out = new ArrayList<>(schema.getFields().size());
        try {
            for (int column : passed) {
                out.add(Take.take(current.getVector(column), inputRows, count, context.allocator()));
            }
            for (int l = 0; l < vectors.length; l++) {
                FieldVector taken = Take.take(vectors[l].getDataVector(), elements[l], count, context.allocator());
                out.add(Batches.withField(taken, schema.getFields().get(passed.size() + l), context.allocator()));
            }
        } catch (RuntimeException e) {
            out.forEach(FieldVector::close);
            throw e;
        }
        return Batches.of(schema, out, count);
    }

    @Override
    public void close() {
        if (current != null) {
            current.close();
            current = null;
        }
        state = State.DONE;
        inputStream.close();
    }
}
