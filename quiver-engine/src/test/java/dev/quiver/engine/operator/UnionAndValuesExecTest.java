package dev.quiver.engine.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class UnionAndValuesExecTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("a", QuiverTypes.INT32, true),
            QuiverTypes.field("b", QuiverTypes.decimal(15, 2), true)));
    private static final Schema OTHER_NAMES = new Schema(List.of(
            QuiverTypes.field("x", QuiverTypes.INT32, true),
            QuiverTypes.field("y", QuiverTypes.decimal(15, 2), true)));

    private static TestingContext testing(int batchSize) {
        return new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(batchSize, 2));
    }

    @Test
    void valuesProducesItsRowsInBatches() {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            rows.add(Arrays.asList(i, i % 3 == 0 ? null : new BigDecimal(i + ".50")));
        }
        try (TestingContext testing = testing(10)) {
            ValuesExec values = new ValuesExec(SCHEMA, rows);
            assertThat(testing.rows(values)).isEqualTo(rows);
            assertThat(values.metrics().partition(0).outputRows()).isEqualTo(25);
        }
    }

    @Test
    void valuesWithoutRowsIsEmpty() {
        try (TestingContext testing = testing(10)) {
            assertThat(testing.rows(new ValuesExec(SCHEMA, List.of()))).isEmpty();
        }
    }

    @Test
    void unionConcatenatesPartitionsOfEveryInput() {
        List<List<Object>> first = List.of(Arrays.asList(1, new BigDecimal("1.00")), Arrays.asList(2, null));
        List<List<Object>> second = List.of(Arrays.asList(3, new BigDecimal("3.25")), Arrays.asList(null, new BigDecimal("4.00")),
                Arrays.asList(5, new BigDecimal("5.00")));
        ExecutionPlan left = new ValuesExec(SCHEMA, first);
        ExecutionPlan right = MemoryScanExec.split(OTHER_NAMES, second, 2);
        UnionExec union = new UnionExec(List.of(left, right));
        assertThat(union.outputPartitioning().partitionCount()).isEqualTo(3);
        try (TestingContext testing = testing(10)) {
            List<List<Object>> expected = new ArrayList<>(first);
            expected.add(second.get(0));
            expected.add(second.get(2));
            expected.add(second.get(1));
            List<List<Object>> partitionOrder = new ArrayList<>();
            for (int p = 0; p < 3; p++) {
                try (var stream = union.execute(p, testing.context())) {
                    org.apache.arrow.vector.VectorSchemaRoot batch;
                    while ((batch = stream.next()) != null) {
                        try (org.apache.arrow.vector.VectorSchemaRoot owned = batch) {
                            assertThat(owned.getSchema()).isEqualTo(SCHEMA);
                            partitionOrder.addAll(dev.quiver.engine.batch.Batches.toRows(owned));
                        }
                    }
                }
            }
            assertThat(partitionOrder).isEqualTo(expected);
        }
    }
}
