package dev.quiver.engine.operator.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.GeneratedExec;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class CoalescePartitionsExecTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("id", QuiverTypes.INT64, false),
            QuiverTypes.field("name", QuiverTypes.UTF8, true)));

    private static TestingContext testing(int batchSize) {
        return new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(batchSize, 2));
    }

    @Test
    void preservesTheMultisetOfRows() {
        List<List<Object>> rows = new ArrayList<>();
        for (long i = 0; i < 1000; i++) {
            rows.add(java.util.Arrays.asList(i % 97, i % 5 == 0 ? null : "n" + i));
        }
        try (TestingContext testing = testing(64)) {
            List<List<Object>> result = testing.rows(new CoalescePartitionsExec(MemoryScanExec.split(SCHEMA, rows, 4)));
            assertThat(sorted(result)).isEqualTo(sorted(rows));
        }
    }

    @Test
    void singleInputPartitionPassesThrough() {
        GeneratedExec input = GeneratedExec.finite(1, 10, 3);
        try (TestingContext testing = testing(64)) {
            assertThat(testing.rows(new CoalescePartitionsExec(input))).isEqualTo(input.expectedRows());
        }
    }

    @Test
    void emptyInputsGiveNoRows() {
        try (TestingContext testing = testing(64)) {
            assertThat(testing.rows(new CoalescePartitionsExec(GeneratedExec.finite(3, 10, 0)))).isEmpty();
        }
    }

    @Test
    void earlyCloseStopsProducersAndLeaksNothing() throws Exception {
        GeneratedExec input = GeneratedExec.infinite(3, 100);
        try (TestingContext testing = testing(64)) {
            BatchStream stream = new CoalescePartitionsExec(input).execute(0, testing.context());
            for (int i = 0; i < 5; i++) {
                try (VectorSchemaRoot batch = stream.next()) {
                    assertThat(batch.getRowCount()).isEqualTo(100);
                }
            }
            stream.close();
            assertThat(input.opened.get()).isEqualTo(3);
            assertThat(input.closed.get()).isEqualTo(3);
            int produced = input.produced.get();
            // once every producer thread has returned nothing can produce again: the count must not have moved
            assertThat(ProducerThreads.awaitNone("coalesce-")).isEmpty();
            assertThat(input.produced.get()).isEqualTo(produced);
            assertThat(testing.allocator().getAllocatedMemory()).isZero();
        }
    }

    @Test
    void inputFailureReachesConsumerWithItsErrorCode() {
        GeneratedExec input = GeneratedExec.failing(3, 10, 1, ErrorCode.DIVISION_BY_ZERO);
        try (TestingContext testing = testing(64)) {
            assertThatThrownBy(() -> testing.rows(new CoalescePartitionsExec(input)))
                    .isInstanceOfSatisfying(QuiverException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(ErrorCode.DIVISION_BY_ZERO);
                        assertThat(e.getMessage()).contains("injected failure in partition 1");
                    });
            assertThat(input.closed.get()).isEqualTo(input.opened.get());
        }
    }

    static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Object::toString));
        return copy;
    }
}
