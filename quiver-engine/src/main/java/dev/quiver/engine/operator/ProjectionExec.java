package dev.quiver.engine.operator;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.metrics.PartitionMetrics;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

/** Computes {@code exprs} over each input batch; output column i is named {@code names.get(i)}. */
public final class ProjectionExec extends AbstractExecutionPlan {
    private final List<PhysicalExpr> exprs;
    private final List<String> names;
    private final ExecutionPlan input;
    private final Schema schema;

    public ProjectionExec(List<PhysicalExpr> exprs, List<String> names, ExecutionPlan input) {
        this.exprs = List.copyOf(requireNonNull(exprs, "exprs is null"));
        this.names = List.copyOf(requireNonNull(names, "names is null"));
        this.input = requireNonNull(input, "input is null");
        if (exprs.size() != names.size()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "projection has " + exprs.size() + " expressions but " + names.size() + " names");
        }
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < exprs.size(); i++) {
            fields.add(field(names.get(i), exprs.get(i), input.schema()));
        }
        this.schema = new Schema(fields);
    }

    /** The output field of an expression; a column keeps its input field's children (a list's element, a struct's fields). */
    private static Field field(String name, PhysicalExpr expr, Schema inputSchema) {
        if (expr instanceof ColumnExpr column && column.index() < inputSchema.getFields().size()) {
            Field input = inputSchema.getFields().get(column.index());
            if (!input.getChildren().isEmpty()) {
                return new Field(name, new FieldType(expr.nullable(), input.getType(), null), input.getChildren());
            }
        }
        return QuiverTypes.field(name, expr.type(), expr.nullable());
    }

    public List<PhysicalExpr> exprs() {
        return exprs;
    }

    public List<String> names() {
        return names;
    }

    public ExecutionPlan input() {
        return input;
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
        return input.outputPartitioning() instanceof Partitioning.Hash ? new Partitioning.Unknown(input.outputPartitioning().partitionCount())
                : input.outputPartitioning();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new ProjectionExec(exprs, names, children.get(0));
    }

    @Override
    public String displayLine() {
        StringBuilder line = new StringBuilder("ProjectionExec: ");
        for (int i = 0; i < exprs.size(); i++) {
            line.append(i == 0 ? "" : ", ").append(exprs.get(i).display()).append(" AS ").append(names.get(i));
        }
        return line.toString();
    }

    @Override
    public String name() {
        return "ProjectionExec";
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        BatchStream stream = new ProjectionStream(input.execute(partition, context), context, metrics().partition(partition));
        return new MeteredBatchStream(stream, metrics().partition(partition), context);
    }

    /** Evaluates the expressions over each input batch and closes the input batch. */
    private final class ProjectionStream implements BatchStream {
        private final BatchStream inputStream;
        private final TaskContext context;
        private final PartitionMetrics metrics;

        ProjectionStream(BatchStream inputStream, TaskContext context, PartitionMetrics metrics) {
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
            VectorSchemaRoot batch = inputStream.next();
            if (batch == null) {
                return null;
            }
            long start = System.nanoTime();
            try (batch) {
                return project(batch);
            } finally {
                metrics.addElapsedCompute(System.nanoTime() - start);
            }
        }

        private VectorSchemaRoot project(VectorSchemaRoot batch) {
            List<FieldVector> vectors = new ArrayList<>(exprs.size());
            try {
                for (int i = 0; i < exprs.size(); i++) {
                    FieldVector vector = exprs.get(i).evaluate(batch, context.allocator());
                    vectors.add(withField(vector, schema.getFields().get(i)));
                }
            } catch (RuntimeException e) {
                vectors.forEach(FieldVector::close);
                throw e;
            }
            return new VectorSchemaRoot(schema.getFields(), vectors, batch.getRowCount());
        }

        /** The vector under the output field's name and nullability (a zero-copy transfer when they differ). */
        private FieldVector withField(FieldVector vector, Field field) {
            if (vector.getField().equals(field)) {
                return vector;
            }
            try (vector) {
                TransferPair pair = vector.getTransferPair(field, context.allocator());
                pair.transfer();
                return (FieldVector) pair.getTo();
            }
        }

        @Override
        public void close() {
            inputStream.close();
        }
    }
}
