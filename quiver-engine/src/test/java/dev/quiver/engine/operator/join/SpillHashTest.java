package dev.quiver.engine.operator.join;

import static dev.quiver.engine.operator.join.JoinFixtures.LEFT;
import static dev.quiver.engine.operator.join.JoinFixtures.RIGHT;
import static dev.quiver.engine.operator.join.JoinOracle.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.exchange.PartitionHash;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/** The spill partitions of a grace join: consistent across sides, spread evenly, independent across levels and of the partition hash. */
class SpillHashTest {
    private static final int ROWS = 16_000;
    private static final List<KeyKernel> KERNELS = List.of(KeyKernel.forType(QuiverTypes.INT64),
            KeyKernel.forType(QuiverTypes.UTF8));

    private static List<List<Object>> rows(boolean withNulls) {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            boolean isNull = withNulls && i % 4 == 0;
            rows.add(row(isNull ? null : (long) i, "s" + i % 1000, i));
        }
        return rows;
    }

    @Test
    void equalKeysGetEqualPartitionsOnBothSides() {
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot left = Batches.fromRows(LEFT, rows(false), allocator);
                VectorSchemaRoot right = Batches.fromRows(RIGHT, rows(false), allocator)) {
            for (int level = 0; level <= GraceBuild.MAX_LEVEL; level++) {
                assertThat(new SpillHash(JoinFixtures.leftKeys(2), KERNELS).partitions(left, level, allocator))
                        .isEqualTo(new SpillHash(JoinFixtures.rightKeys(2), KERNELS).partitions(right, level, allocator));
            }
        }
    }

    @Test
    void eachLevelSpreadsTheRowsOfOneRepartitionPartitionAndOfOneFirstLevelPartition() {
        List<PhysicalExpr> keys = JoinFixtures.leftKeys(1);
        try (BufferAllocator allocator = new RootAllocator(); VectorSchemaRoot batch = Batches.fromRows(LEFT, rows(false), allocator)) {
            SpillHash hash = new SpillHash(keys, KERNELS.subList(0, 1));
            int[] repartition = PartitionHash.partitions(List.of(batch.getVector(0)), ROWS, 4);
            int[] previous = null;
            for (int level = 0; level <= GraceBuild.MAX_LEVEL; level++) {
                int[] partitions = hash.partitions(batch, level, allocator);
                // rows that the repartition below sent to partition 1 and, from level 1 on, that level 0 put in partition 5
                int[] counts = new int[SpillHash.FAN_OUT];
                int selected = 0;
                for (int row = 0; row < ROWS; row++) {
                    if (repartition[row] == 1 && (previous == null || previous[row] == 5)) {
                        counts[partitions[row]]++;
                        selected++;
                    }
                }
                for (int count : counts) {
                    assertThat((double) count / selected).as("level %s", level).isBetween(0.5 / SpillHash.FAN_OUT, 1.5 / SpillHash.FAN_OUT);
                }
                if (previous == null) {
                    previous = partitions;
                }
            }
        }
    }

    @Test
    void nullKeysAreDealtOverEveryPartition() {
        try (BufferAllocator allocator = new RootAllocator(); VectorSchemaRoot batch = Batches.fromRows(LEFT, rows(true), allocator)) {
            int[] partitions = new SpillHash(JoinFixtures.leftKeys(1), KERNELS.subList(0, 1)).partitions(batch, 0, allocator);
            int[] nullCounts = new int[SpillHash.FAN_OUT];
            for (int row = 0; row < ROWS; row += 4) {
                nullCounts[partitions[row]]++;
            }
            assertThat(nullCounts).containsOnly(ROWS / 4 / SpillHash.FAN_OUT);
        }
    }
}
