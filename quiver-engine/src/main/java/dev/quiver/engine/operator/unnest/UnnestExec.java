package dev.quiver.engine.operator.unnest;

import static java.util.Objects.requireNonNull;

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
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Emits each input row once per element of its lists, with DuckDB's {@code UNNEST} semantics: the
 * lists of {@code lists} (input columns) are unnested side by side — output row {@code e} of an
 * input row holds element {@code e} of each list, NULL where a list is shorter — so an input row
 * gives as many rows as its longest list has elements, and none when every list is NULL or empty.
 * The output is every input column but the lists (repeated per element) followed by one column per
 * list holding its elements, named {@code names}; an element column keeps the element's type,
 * children included (a list of structs unnests into a struct column). The lists are not passed on:
 * each output row would copy its whole list.
 *
 * <p>It is both {@code SELECT unnest(l), ...} (a projection above it picks the columns) and the
 * lateral {@code FROM t, UNNEST(t.l)}. Rows keep their order; output batches hold at most the batch
 * size, however long a list is. It holds one input batch at a time. It keeps its input's
 * partitioning only when the lists are its last columns (then the other columns keep their
 * positions, and a hash on them still holds), which is how the SQL planner builds it.
 *
 * <p>Metrics: {@code output_rows}, {@code output_bytes}, {@code elapsed_compute} per partition.
 */
public final class UnnestExec extends AbstractExecutionPlan {
    /** The input columns that are unnested, each a list; at least one, no column twice. */
    private final List<Integer> lists;
    /** The names of the element columns, one per list. */
    private final List<String> names;
    private final ExecutionPlan input;
    /** The input columns passed on: all but the lists, in order. */
    private final List<Integer> passed;
    /** The passed input fields, then one element field per list. */
    private final Schema schema;

    public UnnestExec(List<Integer> lists, List<String> names, ExecutionPlan input) {
        this.lists = List.copyOf(requireNonNull(lists, "lists is null"));
        this.names = List.copyOf(requireNonNull(names, "names is null"));
        this.input = requireNonNull(input, "input is null");
        List<Field> inputFields = input.schema().getFields();
        if (this.lists.isEmpty() || this.lists.size() != this.names.size()) {
            throw planError("needs at least one list column and one name per list, got lists %s and names %s", this.lists, this.names);
        }
        if (this.lists.stream().distinct().count() != this.lists.size()) {
            throw planError("unnests a column twice: %s", this.lists);
        }
        List<Integer> passedColumns = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        for (int c = 0; c < inputFields.size(); c++) {
            if (!this.lists.contains(c)) {
                passedColumns.add(c);
                fields.add(inputFields.get(c));
            }
        }
        this.passed = List.copyOf(passedColumns);
        for (int i = 0; i < this.lists.size(); i++) {
            int column = this.lists.get(i);
            if (column < 0 || column >= inputFields.size() || !(inputFields.get(column).getType() instanceof ArrowType.List)) {
                throw planError("column %s is not a list column of the input %s", column, input.schema());
            }
            Field element = inputFields.get(column).getChildren().get(0);
            fields.add(new Field(this.names.get(i), new FieldType(true, element.getType(), element.getDictionary(), element.getMetadata()),
                    element.getChildren()));
        }
        this.schema = new Schema(fields);
    }

    private static QuiverException planError(String format, Object... args) {
        return new QuiverException(ErrorCode.PLAN_ERROR, "UnnestExec " + String.format(format, args));
    }

    public List<Integer> lists() {
        return lists;
    }

    public List<String> names() {
        return names;
    }

    public ExecutionPlan input() {
        return input;
    }

    @Override
    public String name() {
        return "UnnestExec";
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
        Partitioning partitioning = input.outputPartitioning();
        boolean listsLast = passed.isEmpty() || passed.get(passed.size() - 1) == passed.size() - 1;
        // the passed columns keep their values; their positions only when the lists come after them
        return partitioning instanceof Partitioning.Hash && !listsLast ? new Partitioning.Unknown(partitioning.partitionCount()) : partitioning;
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        if (children.size() != 1) {
            throw planError("needs one child, got %s", children.size());
        }
        return new UnnestExec(lists, names, children.get(0));
    }

    @Override
    public String displayLine() {
        List<Field> inputFields = input.schema().getFields();
        StringBuilder line = new StringBuilder("UnnestExec: ");
        for (int i = 0; i < lists.size(); i++) {
            line.append(i == 0 ? "" : ", ").append(inputFields.get(lists.get(i)).getName()).append('@').append(lists.get(i))
                    .append(" AS ").append(names.get(i));
        }
        return line.toString();
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        PartitionMetrics metrics = metrics().partition(partition);
        return new MeteredBatchStream(new UnnestStream(input.execute(partition, context), schema, passed, lists, context, metrics), metrics, context);
    }
}
