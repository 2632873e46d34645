package dev.quiver.engine.operator.limit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.GeneratedExec;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class LimitExecTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("i", QuiverTypes.INT32, false),
            QuiverTypes.field("s", QuiverTypes.UTF8, false)));
    private static final int ROWS = 35;

    private static TestingContext testing(int batchSize) {
        return new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(batchSize, 2));
    }

    private static List<List<Object>> rows() {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(List.of(i, "row" + i));
        }
        return rows;
    }

    @ParameterizedTest
    @CsvSource({"0,0", "0,5", "0,10", "5,10", "9,2", "10,10", "0,35", "0,100", "30,10", "35,1", "40,5",
            "0,-1", "12,-1", "35,-1", "50,-1"})
    void skipAndFetch(long skip, long fetch) {
        List<List<Object>> rows = rows();
        int from = (int) Math.min(skip, ROWS);
        int to = fetch < 0 ? ROWS : (int) Math.min(ROWS, from + fetch);
        try (TestingContext testing = testing(10)) {
            MemoryScanExec scan = new MemoryScanExec(SCHEMA, List.of(rows));
            GlobalLimitExec limit = new GlobalLimitExec(scan, skip, fetch < 0 ? OptionalLong.empty() : OptionalLong.of(fetch));
            assertThat(testing.rows(limit)).isEqualTo(rows.subList(from, to));
        }
    }

    @Test
    void statisticsOfLimits() {
        MemoryScanExec scan = new MemoryScanExec(SCHEMA, List.of(rows()));
        assertThat(new GlobalLimitExec(scan, 30, OptionalLong.of(10)).partitionStatistics(java.util.OptionalInt.empty()).rowCount())
                .isEqualTo(dev.quiver.engine.stats.Estimate.exact(5));
        assertThat(new GlobalLimitExec(scan, 3, OptionalLong.of(10)).partitionStatistics(java.util.OptionalInt.empty()).rowCount())
                .isEqualTo(dev.quiver.engine.stats.Estimate.exact(10));
        assertThat(new GlobalLimitExec(scan, 40, OptionalLong.empty()).partitionStatistics(java.util.OptionalInt.empty()).rowCount())
                .isEqualTo(dev.quiver.engine.stats.Estimate.exact(0));
        MemoryScanExec split = MemoryScanExec.split(SCHEMA, rows(), 3);
        assertThat(new LocalLimitExec(split, 5).partitionStatistics(java.util.OptionalInt.empty()).rowCount())
                .isEqualTo(dev.quiver.engine.stats.Estimate.exact(15));
        assertThat(new LocalLimitExec(split, 50).partitionStatistics(java.util.OptionalInt.of(0)).rowCount())
                .isEqualTo(dev.quiver.engine.stats.Estimate.exact(12));
    }

    @Test
    void globalLimitClosesItsInputOnceSatisfied() {
        GeneratedExec input = GeneratedExec.infinite(1, 10);
        try (TestingContext testing = testing(10)) {
            var stream = new GlobalLimitExec(input, 3, OptionalLong.of(25)).execute(0, testing.context());
            List<Object> values = new ArrayList<>();
            org.apache.arrow.vector.VectorSchemaRoot batch;
            while ((batch = stream.next()) != null) {
                try (org.apache.arrow.vector.VectorSchemaRoot owned = batch) {
                    dev.quiver.engine.batch.Batches.toRows(owned).forEach(r -> values.add(r.get(0)));
                    if (values.size() == 25) {
                        assertThat(input.closed.get()).isEqualTo(1);
                    }
                }
            }
            stream.close();
            List<Object> expected = new ArrayList<>();
            for (long v = 3; v < 28; v++) {
                expected.add(v);
            }
            assertThat(values).isEqualTo(expected);
            assertThat(input.produced.get()).isEqualTo(3);
        }
    }

    @Test
    void localLimitAppliesPerPartition() {
        GeneratedExec input = GeneratedExec.finite(3, 10, 5);
        try (TestingContext testing = testing(10)) {
            LocalLimitExec limit = new LocalLimitExec(input, 15);
            assertThat(limit.outputPartitioning().partitionCount()).isEqualTo(3);
            List<List<Object>> expected = new ArrayList<>();
            for (long p = 0; p < 3; p++) {
                for (long i = 0; i < 15; i++) {
                    expected.add(List.of(p * 1_000_000 + i));
                }
            }
            List<List<Object>> result = new ArrayList<>(testing.rows(limit));
            result.sort(java.util.Comparator.comparing(r -> (Long) r.get(0)));
            assertThat(result).isEqualTo(expected);
            assertThat(input.closed.get()).isEqualTo(3);
        }
    }
}
