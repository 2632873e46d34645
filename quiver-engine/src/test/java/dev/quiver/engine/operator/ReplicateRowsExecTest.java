package dev.quiver.engine.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class ReplicateRowsExecTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("s", QuiverTypes.UTF8, true),
            QuiverTypes.field("times", QuiverTypes.INT64, true)));

    private static TestingContext testing(int batchSize) {
        return new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(batchSize, 2));
    }

    @Test
    void emitsEachRowItsCountOfTimesInOrder() {
        List<List<Object>> rows = List.of(Arrays.asList("a", 2L), Arrays.asList(null, 1L), Arrays.asList("zero", 0L),
                Arrays.asList("negative", -3L), Arrays.asList("null", null), Arrays.asList("b", 3L));
        try (TestingContext testing = testing(100)) {
            ReplicateRowsExec replicate = new ReplicateRowsExec(new ValuesExec(SCHEMA, rows));
            assertThat(replicate.schema().getFields()).extracting(f -> f.getName()).containsExactly("s");
            assertThat(testing.rows(replicate)).containsExactly(List.of("a"), List.of("a"), Arrays.asList((Object) null), List.of("b"),
                    List.of("b"), List.of("b"));
        }
    }

    @Test
    void aLargeCountSpansBatchesOfAtMostTheBatchSize() {
        List<List<Object>> rows = List.of(Arrays.asList("x", 7L), Arrays.asList("y", 0L), Arrays.asList("z", 2L));
        try (TestingContext testing = testing(3)) {
            ReplicateRowsExec replicate = new ReplicateRowsExec(new ValuesExec(SCHEMA, rows));
            List<List<Object>> expected = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                expected.add(List.of("x"));
            }
            expected.add(List.of("z"));
            expected.add(List.of("z"));
            assertThat(testing.rows(replicate)).isEqualTo(expected);
            assertThat(PartitionRunner.batchSizes(replicate, testing.context()).get(0)).allSatisfy(size -> assertThat(size).isBetween(1, 3));
        }
    }

    @Test
    void needsABigintCountColumnLast() {
        Schema noCount = new Schema(List.of(QuiverTypes.field("s", QuiverTypes.UTF8, true), QuiverTypes.field("n", QuiverTypes.INT32, true)));
        assertThatThrownBy(() -> new ReplicateRowsExec(new ValuesExec(noCount, List.of()))).isInstanceOf(QuiverException.class)
                .hasMessageContaining("BIGINT");
    }
}
