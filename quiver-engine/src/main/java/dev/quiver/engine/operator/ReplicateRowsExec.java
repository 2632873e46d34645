package dev.quiver.engine.operator;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.batch.Take;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Emits each input row as many times as its last column says (a BIGINT; zero, negative or NULL
 * emits nothing) and drops that column: the last step of {@code INTERSECT ALL} and
 * {@code EXCEPT ALL}, after an aggregate counted each distinct row's occurrences on either side.
 * Rows keep their order; output batches hold at most the batch size, however large a count is.
 * It holds one input batch at a time and partitions like its input.
 */
public final class ReplicateRowsExec extends AbstractExecutionPlan {
    private final ExecutionPlan input;
    private final Schema schema;

    public ReplicateRowsExec(ExecutionPlan input) {
        this.input = requireNonNull(input, "input is null");
        List<Field> fields = input.schema().getFields();
        if (fields.size() < 2 || !(fields.get(fields.size() - 1).getType() instanceof ArrowType.Int count) || count.getBitWidth() != 64) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "ReplicateRowsExec needs a last BIGINT column of counts after the row: " + input.schema());
        }
        this.schema = new Schema(fields.subList(0, fields.size() - 1));
    }

    public ExecutionPlan input() {
        return input;
    }

    @Override
    public String name() {
        return "ReplicateRowsExec";
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public Partitioning outputPartitioning() {
        // a hash on the kept columns still holds; one on the count column cannot exist (it is computed above the keys)
        return input.outputPartitioning();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new ReplicateRowsExec(children.get(0));
    }

    @Override
    public String displayLine() {
        return "ReplicateRowsExec: times=" + input.schema().getFields().get(schema.getFields().size()).getName();
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        PartitionMetrics metrics = metrics().partition(partition);
        return new MeteredBatchStream(new ReplicateStream(input.execute(partition, context), context, metrics), metrics, context);
    }

    /** Walks the current input batch row by row, each row its remaining number of times, a batch at a time. */
    private final class ReplicateStream implements BatchStream {
        private final BatchStream inputStream;
        private final TaskContext context;
        private final PartitionMetrics metrics;
        private VectorSchemaRoot current;
        private long[] counts;
        private int row;
        private long remaining;

        ReplicateStream(BatchStream inputStream, TaskContext context, PartitionMetrics metrics) {
            this.inputStream = inputStream;
            this.context = context;
            this.metrics = metrics;
        }

        @Override
        public Schema schema() {
            return schema;
        }

        @Override
        public VectorSchemaRoot next() {
            while (true) {
                if (current == null && !advance()) {
                    return null;
                }
                long start = System.nanoTime();
                try {
                    VectorSchemaRoot out = take();
                    if (out != null) {
                        return out;
                    }
                } finally {
                    metrics.addElapsedCompute(System.nanoTime() - start);
                }
                context.checkCancelled();
            }
        }

        private boolean advance() {
            current = inputStream.next();
            if (current == null) {
                return false;
            }
            BigIntVector times = (BigIntVector) current.getVector(schema.getFields().size());
            int rows = current.getRowCount();
            counts = new long[rows];
            for (int i = 0; i < rows; i++) {
                counts[i] = times.isNull(i) ? 0 : Math.max(0, times.get(i));
            }
            row = 0;
            remaining = rows > 0 ? counts[0] : 0;
            return true;
        }

        /** The next rows of the current batch (closing it once used up), or null when it had none left. */
        private VectorSchemaRoot take() {
            int rows = current.getRowCount();
            int capacity = context.batchSize();
            int[] indices = new int[capacity];
            int filled = 0;
            while (filled < capacity && row < rows) {
                int copies = (int) Math.min(remaining, capacity - filled);
                for (int i = 0; i < copies; i++) {
                    indices[filled++] = row;
                }
                remaining -= copies;
                if (remaining == 0 && ++row < rows) {
                    remaining = counts[row];
                }
            }
            VectorSchemaRoot out = null;
            if (filled > 0) {
                List<FieldVector> vectors = new ArrayList<>(schema.getFields().size());
                try {
                    for (int c = 0; c < schema.getFields().size(); c++) {
                        vectors.add(Take.take(current.getVector(c), indices, filled, context.allocator()));
                    }
                } catch (RuntimeException e) {
                    vectors.forEach(FieldVector::close);
                    throw e;
                }
                out = Batches.of(schema, vectors, filled);
            }
            if (row >= rows) {
                current.close();
                current = null;
            }
            return out;
        }

        @Override
        public void close() {
            if (current != null) {
                current.close();
                current = null;
            }
            inputStream.close();
        }
    }
}
