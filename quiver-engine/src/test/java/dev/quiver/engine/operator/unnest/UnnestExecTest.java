package dev.quiver.engine.operator.unnest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.PartitionRunner;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.Test;

class UnnestExecTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("id", QuiverTypes.INT32, false),
            QuiverTypes.list("a", QuiverTypes.field(QuiverTypes.LIST_ELEMENT, QuiverTypes.INT32, true), true),
            QuiverTypes.list("b", QuiverTypes.field(QuiverTypes.LIST_ELEMENT, QuiverTypes.UTF8, true), true)));

    /** Rows of (id, a, b): a NULL list is null, an element null is a NULL element. */
    private static final List<List<Object>> ROWS = List.of(
            Arrays.asList(1, Arrays.asList(10, 11, 12), List.of("x")),
            Arrays.asList(2, List.of(), null),
            Arrays.asList(3, null, List.of("y", "z")),
            Arrays.asList(4, Arrays.asList(40, null), List.of()),
            Arrays.asList(5, null, null),
            Arrays.asList(6, Arrays.asList(60, 61, 62, 63, 64), List.of("w")));

    private static TestingContext testing(int batchSize) {
        return new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(batchSize, 1));
    }

    @Test
    void oneListGivesARowPerElementAndNoneForNullOrEmptyLists() {
        try (TestingContext testing = testing(100)) {
            UnnestExec unnest = new UnnestExec(List.of(1), List.of("x"), new ListSource());
            // the other columns, then the elements: the list itself is not passed on
            assertThat(unnest.schema().getFields()).extracting(f -> f.getName()).containsExactly("id", "b", "x");
            assertThat(unnest.schema().getFields().get(2).getType()).isEqualTo(QuiverTypes.INT32);
            List<Object> ids = new ArrayList<>();
            List<Object> elements = new ArrayList<>();
            for (List<Object> row : testing.rows(unnest)) {
                ids.add(row.get(0));
                elements.add(row.get(2));
            }
            assertThat(ids).containsExactly(1, 1, 1, 4, 4, 6, 6, 6, 6, 6);
            assertThat(elements).containsExactly(10, 11, 12, 40, null, 60, 61, 62, 63, 64);
        }
    }

    @Test
    void severalListsZipPaddedWithNulls() {
        try (TestingContext testing = testing(100)) {
            UnnestExec unnest = new UnnestExec(List.of(1, 2), List.of("x", "y"), new ListSource());
            List<List<Object>> pairs = new ArrayList<>();
            for (List<Object> row : testing.rows(unnest)) {
                pairs.add(Arrays.asList(row.get(0), row.get(1), row.get(2)));
            }
            assertThat(pairs).containsExactly(
                    Arrays.asList(1, 10, "x"), Arrays.asList(1, 11, null), Arrays.asList(1, 12, null),
                    Arrays.asList(3, null, "y"), Arrays.asList(3, null, "z"),
                    Arrays.asList(4, 40, null), Arrays.asList(4, null, null),
                    Arrays.asList(6, 60, "w"), Arrays.asList(6, 61, null), Arrays.asList(6, 62, null), Arrays.asList(6, 63, null),
                    Arrays.asList(6, 64, null));
        }
    }

    @Test
    void aLongListSpansBatchesOfAtMostTheBatchSize() {
        try (TestingContext testing = testing(2)) {
            UnnestExec unnest = new UnnestExec(List.of(1), List.of("x"), new ListSource());
            assertThat(testing.rows(unnest)).hasSize(10);
            assertThat(PartitionRunner.batchSizes(unnest, testing.context()).get(0)).allSatisfy(size -> assertThat(size).isBetween(1, 2))
                    .hasSize(5);
            assertThat(unnest.metrics().partition(0).outputRows()).isEqualTo(20);
        }
    }

    @Test
    void onlyListColumnsUnnest() {
        assertThatThrownBy(() -> new UnnestExec(List.of(0), List.of("x"), new ListSource())).isInstanceOf(QuiverException.class)
                .hasMessageContaining("not a list column");
        assertThatThrownBy(() -> new UnnestExec(List.of(1, 1), List.of("x", "y"), new ListSource())).isInstanceOf(QuiverException.class)
                .hasMessageContaining("twice");
    }

    /** One partition, one batch of {@link #ROWS}. */
    private static final class ListSource extends AbstractExecutionPlan {
        @Override
        public String name() {
            return "ListSource";
        }

        @Override
        public Schema schema() {
            return SCHEMA;
        }

        @Override
        public List<ExecutionPlan> children() {
            return List.of();
        }

        @Override
        public Partitioning outputPartitioning() {
            return new Partitioning.Unknown(1);
        }

        @Override
        public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
            return this;
        }

        @Override
        public String displayLine() {
            return "ListSource";
        }

        @Override
        public BatchStream execute(int partition, TaskContext context) {
            return new BatchStream() {
                private boolean done;

                @Override
                public Schema schema() {
                    return SCHEMA;
                }

                @Override
                public VectorSchemaRoot next() {
                    if (done) {
                        return null;
                    }
                    done = true;
                    return batch(context);
                }

                @Override
                public void close() {}
            };
        }

        private static VectorSchemaRoot batch(TaskContext context) {
            VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, context.allocator());
            IntVector ids = (IntVector) root.getVector(0);
            ListVector a = (ListVector) root.getVector(1);
            ListVector b = (ListVector) root.getVector(2);
            UnionListWriter aWriter = a.getWriter();
            UnionListWriter bWriter = b.getWriter();
            for (int r = 0; r < ROWS.size(); r++) {
                List<Object> row = ROWS.get(r);
                ids.setSafe(r, (Integer) row.get(0));
                aWriter.setPosition(r);
                if (row.get(1) instanceof List<?> values) {
                    aWriter.startList();
                    for (Object value : values) {
                        if (value == null) {
                            aWriter.writeNull();
                        } else {
                            aWriter.writeInt((Integer) value);
                        }
                    }
                    aWriter.endList();
                }
                bWriter.setPosition(r);
                if (row.get(2) instanceof List<?> values) {
                    bWriter.startList();
                    for (Object value : values) {
                        bWriter.writeVarChar(new Text((String) value));
                    }
                    bWriter.endList();
                }
            }
            a.setValueCount(ROWS.size());
            b.setValueCount(ROWS.size());
            ids.setValueCount(ROWS.size());
            root.setRowCount(ROWS.size());
            return root;
        }
    }
}
