package dev.quiver.engine.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class FilterTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("i", QuiverTypes.INT32, true),
            QuiverTypes.field("l", QuiverTypes.INT64, false),
            QuiverTypes.field("d", QuiverTypes.decimal(15, 2), true),
            QuiverTypes.field("s", QuiverTypes.UTF8, true),
            QuiverTypes.field("b", QuiverTypes.BOOLEAN, true),
            QuiverTypes.field("day", QuiverTypes.DATE32, true),
            QuiverTypes.field("f", QuiverTypes.FLOAT64, true)));

    /** Strings of 1 to 43 characters: both the short-string byte loop and the block copy of the gather. */
    @Test
    void keepsExactlyTheTrueRowsOfEveryType() {
        keepsExactlyTheTrueRows(3);
    }

    /** Nearly every row passes: the selection is long runs of rows, gathered one copy per run ({@link RunGather}). */
    @Test
    void keepsExactlyTheTrueRowsOfMostlyPassingSelections() {
        keepsExactlyTheTrueRows(40);
    }

    /** Each row fails (FALSE or NULL) with probability 2 / {@code oneIn}. */
    private static void keepsExactlyTheTrueRows(int oneIn) {
        Random random = new Random(5 + oneIn);
        // 20000 rows: every fixed width gathers over OverwriteAllocation's buffers (see its MIN_BYTES)
        for (int rows : new int[] {0, 1, 63, 64, 65, 200, 1000, 20000}) {
            List<List<Object>> data = new ArrayList<>();
            List<Boolean> selection = new ArrayList<>();
            for (int r = 0; r < rows; r++) {
                boolean nulls = random.nextInt(5) == 0;
                data.add(Arrays.asList(nulls ? null : random.nextInt(), (long) r, nulls ? null : BigDecimal.valueOf(random.nextInt(100000), 2),
                        nulls ? null : "s".repeat(random.nextInt(40)) + random.nextInt(1000), nulls ? null : random.nextBoolean(), nulls ? null : random.nextInt(20000),
                        nulls ? null : random.nextDouble()));
                int pick = random.nextInt(oneIn);
                selection.add(pick == 0 ? null : pick != 1);
            }
            try (TestingContext testing = new TestingContext();
                    VectorSchemaRoot batch = Batches.fromRows(SCHEMA, data, testing.allocator())) {
                List<List<Object>> expected = new ArrayList<>();
                int[] positions = new int[rows];
                int count = 0;
                for (int r = 0; r < rows; r++) {
                    if (Boolean.TRUE.equals(selection.get(r))) {
                        expected.add(data.get(r));
                        positions[count++] = r;
                    }
                }
                try (VectorSchemaRoot filtered = Filter.gatherRows(batch, positions, count, testing.allocator())) {
                    assertThat(filtered.getRowCount()).isEqualTo(expected.size());
                    assertThat(Batches.toRows(filtered)).isEqualTo(expected);
                }
                assertThat(Batches.toRows(batch)).isEqualTo(data);
            }
        }
    }
}
