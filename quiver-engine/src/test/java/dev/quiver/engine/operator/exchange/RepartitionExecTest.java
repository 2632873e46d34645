package dev.quiver.engine.operator.exchange;

import static dev.quiver.engine.operator.exchange.CoalescePartitionsExecTest.sorted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.GeneratedExec;
import dev.quiver.engine.operator.PartitionRunner;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class RepartitionExecTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("k", QuiverTypes.INT32, true),
            QuiverTypes.field("s", QuiverTypes.UTF8, true),
            QuiverTypes.field("d", QuiverTypes.decimal(15, 2), true)));

    private static TestingContext testing(int batchSize) {
        return new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(batchSize, 2));
    }

    private static List<List<Object>> rows(int count) {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(Arrays.asList(i % 50 == 0 ? null : i % 37, i % 7 == 0 ? null : "s" + i, BigDecimal.valueOf(i, 2)));
        }
        return rows;
    }

    private static Partitioning.Hash hashOnK(int partitions) {
        return new Partitioning.Hash(List.of(new ColumnExpr(0, "k", QuiverTypes.INT32, true)), partitions);
    }

    @Test
    void hashPutsEqualKeysInThePartitionOfTheirHash() {
        List<List<Object>> rows = rows(2000);
        try (TestingContext testing = testing(64)) {
            RepartitionExec plan = new RepartitionExec(MemoryScanExec.split(SCHEMA, rows, 3), hashOnK(4));
            List<List<List<Object>>> partitions = PartitionRunner.rowsPerPartition(plan, testing.context());
            testing.reset();
            List<List<Object>> all = new ArrayList<>();
            Map<Object, Integer> partitionOfKey = new HashMap<>();
            for (int p = 0; p < 4; p++) {
                for (List<Object> row : partitions.get(p)) {
                    assertThat(PartitionHash.partition(PartitionHash.hashRow(Arrays.asList(row.get(0))), 4)).isEqualTo(p);
                    assertThat(partitionOfKey.putIfAbsent(row.get(0) == null ? "null" : row.get(0), p)).isIn(null, p);
                }
                all.addAll(partitions.get(p));
            }
            assertThat(sorted(all)).isEqualTo(sorted(rows));
            assertThat(partitionOfKey).hasSize(38);
            assertThat(partitions).allSatisfy(p -> assertThat(p).isNotEmpty());
        }
    }

    @Test
    void displaysKeysAsExpressions() {
        RepartitionExec plan = new RepartitionExec(MemoryScanExec.split(SCHEMA, rows(3), 3), hashOnK(4));
        assertThat(plan.displayLine()).isEqualTo("RepartitionExec: partitioning=Hash([k@0], 4), input_partitions=3");
        assertThat(new RepartitionExec(plan, new Partitioning.RoundRobin(2)).displayLine())
                .isEqualTo("RepartitionExec: partitioning=RoundRobin(2), input_partitions=4");
    }

    @Test
    void hashGathersSmallPiecesUpToTheBatchSize() {
        try (TestingContext testing = testing(100)) {
            RepartitionExec plan = new RepartitionExec(MemoryScanExec.split(SCHEMA, rows(5000), 2), hashOnK(4));
            List<List<Integer>> sizes = PartitionRunner.batchSizes(plan, testing.context());
            testing.reset();
            int total = 0;
            for (List<Integer> partition : sizes) {
                // each producer flushes one partial batch per output at its end
                assertThat(partition.stream().filter(rows -> rows < 100).count()).isLessThanOrEqualTo(2);
                total += partition.stream().mapToInt(Integer::intValue).sum();
            }
            assertThat(total).isEqualTo(5000);
        }
    }

    @Test
    void roundRobinPreservesRowsAndBalancesBatches() {
        List<List<Object>> rows = rows(1200);
        try (TestingContext testing = testing(100)) {
            RepartitionExec plan = new RepartitionExec(MemoryScanExec.split(SCHEMA, rows, 2), new Partitioning.RoundRobin(3));
            List<List<List<Object>>> partitions = PartitionRunner.rowsPerPartition(plan, testing.context());
            testing.reset();
            List<List<Object>> all = new ArrayList<>();
            partitions.forEach(all::addAll);
            assertThat(sorted(all)).isEqualTo(sorted(rows));
            assertThat(partitions).allSatisfy(p -> assertThat(p).hasSize(400));
        }
    }

    @Test
    void coalescedHashRepartitionPreservesTheMultiset() {
        List<List<Object>> rows = rows(3000);
        try (TestingContext testing = testing(128)) {
            var plan = new CoalescePartitionsExec(new RepartitionExec(MemoryScanExec.split(SCHEMA, rows, 3), hashOnK(5)));
            assertThat(sorted(testing.rows(plan))).isEqualTo(sorted(rows));
        }
    }

    @Test
    void closingEveryOutputStopsProducersAndLeaksNothing() throws Exception {
        GeneratedExec input = GeneratedExec.infinite(2, 50);
        try (TestingContext testing = testing(50)) {
            RepartitionExec plan = new RepartitionExec(input, new Partitioning.RoundRobin(3));
            List<BatchStream> streams = new ArrayList<>();
            for (int p = 0; p < 3; p++) {
                streams.add(plan.execute(p, testing.context()));
            }
            for (int round = 0; round < 3; round++) {
                for (BatchStream stream : streams) {
                    try (VectorSchemaRoot batch = stream.next()) {
                        assertThat(batch.getRowCount()).isEqualTo(50);
                    }
                }
            }
            streams.forEach(BatchStream::close);
            assertThat(input.closed.get()).isEqualTo(2);
            int produced = input.produced.get();
            // once every producer thread has returned nothing can produce again: the count must not have moved
            assertThat(ProducerThreads.awaitNone("repartition-" + testing.context().taskId() + "-in")).isEmpty();
            assertThat(input.produced.get()).isEqualTo(produced);
            assertThat(testing.allocator().getAllocatedMemory()).isZero();
        }
    }

    @Test
    void anOutputClosedEarlyDoesNotBlockTheOthers() {
        GeneratedExec input = GeneratedExec.finite(2, 10, 200);
        List<Object> expected = new ArrayList<>();
        for (List<Object> row : input.expectedRows()) {
            if (PartitionHash.partition(PartitionHash.hashRow(row), 3) != 0) {
                expected.add(row.get(0));
            }
        }
        try (TestingContext testing = testing(10)) {
            RepartitionExec plan = new RepartitionExec(input,
                    new Partitioning.Hash(List.of(new ColumnExpr(0, "v", QuiverTypes.INT64, false)), 3));
            BatchStream first = plan.execute(0, testing.context());
            first.next().close();
            first.close();
            List<List<List<Object>>> partitions = new ArrayList<>();
            for (int p = 1; p < 3; p++) {
                int partition = p;
                partitions.add(null);
                try (BatchStream stream = plan.execute(partition, testing.context())) {
                    List<List<Object>> rows = new ArrayList<>();
                    VectorSchemaRoot batch;
                    // consume the two remaining outputs one after another: only possible without deadlock
                    while ((batch = stream.next()) != null) {
                        try (VectorSchemaRoot owned = batch) {
                            rows.addAll(dev.quiver.engine.batch.Batches.toRows(owned));
                        }
                    }
                    partitions.set(partition - 1, rows);
                }
            }
            List<Object> actual = new ArrayList<>();
            partitions.forEach(p -> p.forEach(row -> actual.add(row.get(0))));
            assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(input.closed.get()).isEqualTo(2);
        }
    }

    @Test
    void limitOverCoalescedRepartitionOfEndlessInputStopsEverything() {
        for (int round = 0; round < 30; round++) {
            GeneratedExec input = GeneratedExec.infinite(3, 100);
            try (TestingContext testing = testing(64)) {
                var plan = new dev.quiver.engine.operator.limit.GlobalLimitExec(
                        new CoalescePartitionsExec(new RepartitionExec(input,
                                new Partitioning.Hash(List.of(new ColumnExpr(0, "v", QuiverTypes.INT64, false)), 4))),
                        round, java.util.OptionalLong.of(1000));
                List<List<Object>> rows = testing.rows(plan);
                assertThat(rows).hasSize(1000).doesNotHaveDuplicates();
                assertThat(input.closed.get()).isEqualTo(input.opened.get()).isEqualTo(3);
            }
        }
    }

    @Test
    void inputFailureReachesEveryOutputWithItsErrorCode() {
        GeneratedExec input = GeneratedExec.failing(2, 10, 1, ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE);
        try (TestingContext testing = testing(10)) {
            RepartitionExec plan = new RepartitionExec(input, new Partitioning.RoundRobin(3));
            for (int p = 0; p < 3; p++) {
                int partition = p;
                assertThatThrownBy(() -> {
                    try (BatchStream stream = plan.execute(partition, testing.context())) {
                        VectorSchemaRoot batch;
                        while ((batch = stream.next()) != null) {
                            batch.close();
                        }
                    }
                }).isInstanceOfSatisfying(QuiverException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE));
            }
            testing.reset();
            assertThat(input.closed.get()).isEqualTo(2);
        }
    }
}
