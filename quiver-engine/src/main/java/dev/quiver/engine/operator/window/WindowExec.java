package dev.quiver.engine.operator.window;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.sort.SortKey;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Statistics;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Window functions over one window specification: {@code PARTITION BY partitionKeys ORDER BY
 * orderKeys}, with one frame per expression. The output is the input's columns followed by one
 * column per {@link WindowExpr}, row for row in the input's order.
 *
 * <h2>Input</h2>
 * Sort-based: each input partition must arrive sorted on the partition keys (any direction) and
 * then the order keys, so that the rows of a window partition are contiguous and in order, and
 * rows with equal partition keys must be in the same input partition. The planner places a
 * {@link dev.quiver.engine.operator.sort.SortExec} below over a hash repartition on the partition
 * keys (one partition without them). Keeping the sort a separate operator lets several window
 * specifications that share a sort order share one sort, and lets the distributed planner treat the
 * repartition as a shuffle like any other.
 *
 * <h2>Execution</h2>
 * Each partition buffers input batches until it holds at least one complete window partition (the
 * next row's partition keys differ), then evaluates every complete window partition it holds as one
 * chunk and emits them, batch by batch, with the window columns appended. Aggregates over frames
 * use the engine's aggregate accumulators (partial states of rows merged through a segment tree;
 * see {@link SegmentTreeAggregate}).
 *
 * <h2>Memory</h2>
 * The buffered rows (at least the whole current window partition) and the evaluation state of a
 * chunk are reserved in a reservation named {@code WindowExec[partition=N]}; a window partition
 * that does not fit fails the query with EXCEEDED_MEMORY_LIMIT naming it.
 */
public final class WindowExec extends AbstractExecutionPlan {
    private final ExecutionPlan input;
    private final List<PhysicalExpr> partitionKeys;
    private final List<SortKey> orderKeys;
    private final List<WindowExpr> windowExprs;
    private final Schema schema;

    public WindowExec(ExecutionPlan input, List<PhysicalExpr> partitionKeys, List<SortKey> orderKeys, List<WindowExpr> windowExprs) {
        this.input = requireNonNull(input, "input is null");
        this.partitionKeys = List.copyOf(requireNonNull(partitionKeys, "partitionKeys is null"));
        this.orderKeys = List.copyOf(requireNonNull(orderKeys, "orderKeys is null"));
        this.windowExprs = List.copyOf(requireNonNull(windowExprs, "windowExprs is null"));
        if (windowExprs.isEmpty()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "WindowExec needs at least one window expression");
        }
        for (WindowExpr expr : windowExprs) {
            checkFrame(expr);
        }
        List<Field> fields = new ArrayList<>(input.schema().getFields());
        windowExprs.forEach(expr -> fields.add(expr.outputField()));
        this.schema = new Schema(fields);
    }

    /** RANGE with offsets needs one ORDER BY key whose type the offset can be added to. */
    private void checkFrame(WindowExpr expr) {
        WindowFrame frame = expr.frame();
        if (!expr.function().usesFrame() || frame.units() != WindowFrame.Units.RANGE
                || !(frame.start().hasOffset() || frame.end().hasOffset())) {
            return;
        }
        if (orderKeys.size() != 1) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "A RANGE frame with an offset needs exactly one ORDER BY key, not "
                    + orderKeys.size() + ": " + expr.display());
        }
        ArrowType keyType = orderKeys.get(0).expr().type();
        for (FrameBound bound : List.of(frame.start(), frame.end())) {
            if (bound.hasOffset() && !RangeKeys.accepts(keyType, bound.offset().orElseThrow())) {
                throw new QuiverException(ErrorCode.TYPE_MISMATCH, "A RANGE frame offset of " + bound.offset().orElseThrow().display()
                        + " does not apply to an ORDER BY key of type " + QuiverTypes.sqlName(keyType) + ": " + expr.display());
            }
        }
    }

    public ExecutionPlan input() {
        return input;
    }

    public List<PhysicalExpr> partitionKeys() {
        return partitionKeys;
    }

    public List<SortKey> orderKeys() {
        return orderKeys;
    }

    public List<WindowExpr> windowExprs() {
        return windowExprs;
    }

    @Override
    public String name() {
        return "WindowExec";
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
        return input.outputPartitioning();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new WindowExec(children.get(0), partitionKeys, orderKeys, windowExprs);
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        Statistics inputStatistics = input.partitionStatistics(partition);
        List<ColumnStatistics> columns = new ArrayList<>(inputStatistics.columns());
        windowExprs.forEach(expr -> columns.add(ColumnStatistics.unknown()));
        return new Statistics(inputStatistics.rowCount(), inputStatistics.totalBytes().toInexact(), columns);
    }

    @Override
    public String displayLine() {
        StringBuilder line = new StringBuilder("WindowExec: ");
        line.append(windowExprs.stream().map(WindowExpr::display).collect(Collectors.joining(", ")));
        line.append(" OVER (");
        if (!partitionKeys.isEmpty()) {
            line.append("PARTITION BY ").append(partitionKeys.stream().map(PhysicalExpr::display).collect(Collectors.joining(", ")));
        }
        if (!orderKeys.isEmpty()) {
            line.append(partitionKeys.isEmpty() ? "" : " ").append("ORDER BY ")
                    .append(orderKeys.stream().map(SortKey::display).collect(Collectors.joining(", ")));
        }
        return line.append(")").toString();
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        BatchStream source = input.execute(partition, context);
        try {
            return new MeteredBatchStream(new WindowStream(this, source, partition, context), metrics().partition(partition), context);
        } catch (RuntimeException e) {
            source.close();
            throw e;
        }
    }
}
