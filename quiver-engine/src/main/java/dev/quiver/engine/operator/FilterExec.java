package dev.quiver.engine.operator;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Filter;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Passes the rows for which {@code predicate} is TRUE (not FALSE, not NULL), evaluating its
 * conjuncts one after another on the rows still selected ({@link FilterConjuncts}).
 */
public final class FilterExec extends AbstractExecutionPlan {
    private final PhysicalExpr predicate;
    private final FilterConjuncts conjuncts;
    private final ExecutionPlan input;

    public FilterExec(PhysicalExpr predicate, ExecutionPlan input) {
        this.predicate = requireNonNull(predicate, "predicate is null");
        this.input = requireNonNull(input, "input is null");
        if (!(predicate.type() instanceof ArrowType.Bool)) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "filter predicate must be BOOLEAN: " + predicate.display());
        }
        this.conjuncts = FilterConjuncts.of(predicate);
    }

    public PhysicalExpr predicate() {
        return predicate;
    }

    public ExecutionPlan input() {
        return input;
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public Partitioning outputPartitioning() {
        return input.outputPartitioning();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new FilterExec(predicate, children.get(0));
    }

    @Override
    public String displayLine() {
        return "FilterExec: " + predicate.display();
    }

    @Override
    public String name() {
        return "FilterExec";
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        BatchStream stream = new FilterStream(input.execute(partition, context), context, metrics().partition(partition));
        return new MeteredBatchStream(stream, metrics().partition(partition), context);
    }

    /** Pulls input batches until one has a passing row; hands on whole batches where every row passes. */
    private final class FilterStream implements BatchStream {
        private final BatchStream inputStream;
        private final TaskContext context;
        private final PartitionMetrics metrics;
        private int[] positions = new int[0];

        FilterStream(BatchStream inputStream, TaskContext context, PartitionMetrics metrics) {
            this.inputStream = inputStream;
            this.context = context;
            this.metrics = metrics;
        }

        @Override
        public Schema schema() {
            return input.schema();
        }

        @Override
        public VectorSchemaRoot next() {
            while (true) {
                VectorSchemaRoot batch = inputStream.next();
                if (batch == null) {
                    return null;
                }
                long start = System.nanoTime();
                try {
                    VectorSchemaRoot result = filter(batch);
                    if (result != null) {
                        return result;
                    }
                } finally {
                    metrics.addElapsedCompute(System.nanoTime() - start);
                }
                context.checkCancelled();
            }
        }

        /** The passing rows of {@code batch} (which this call takes over), or null if none pass. */
        private VectorSchemaRoot filter(VectorSchemaRoot batch) {
            int rows = batch.getRowCount();
            if (positions.length < rows) {
                positions = new int[rows];
            }
            VectorSchemaRoot result = null;
            try {
                int selected = conjuncts.select(batch, positions, context.allocator());
                if (selected == rows && rows > 0) {
                    result = batch;
                } else if (selected > 0) {
                    result = Filter.gatherRows(batch, positions, selected, context.allocator());
                }
                return result;
            } finally {
                if (result != batch) {
                    batch.close();
                }
            }
        }

        @Override
        public void close() {
            inputStream.close();
        }
    }
}
