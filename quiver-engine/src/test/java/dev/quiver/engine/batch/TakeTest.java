package dev.quiver.engine.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class TakeTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("i", QuiverTypes.INT32, true),
            QuiverTypes.field("l", QuiverTypes.INT64, true),
            QuiverTypes.field("d", QuiverTypes.decimal(15, 2), true),
            QuiverTypes.field("s", QuiverTypes.UTF8, true),
            QuiverTypes.field("b", QuiverTypes.BOOLEAN, true),
            QuiverTypes.field("day", QuiverTypes.DATE32, true),
            QuiverTypes.field("f", QuiverTypes.FLOAT64, true)));

    @Test
    void gathersEveryTypeWithNullsAndPadding() {
        List<List<Object>> rows = List.of(
                row(1, 10L, new BigDecimal("1.25"), "one", true, 100, 1.5),
                row(null, null, null, null, null, null, null),
                row(3, 30L, new BigDecimal("-3.00"), "", false, 300, -0.5),
                row(4, 40L, new BigDecimal("4.40"), "a longer string value", true, 400, 4.0));
        int[] indices = {3, -1, 0, 1, 2, 3, -1, 0};
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot batch = Batches.fromRows(SCHEMA, rows, allocator);
                VectorSchemaRoot taken = Take.take(batch, indices, indices.length, allocator)) {
            List<List<Object>> expected = new ArrayList<>();
            for (int index : indices) {
                expected.add(index < 0 ? row(null, null, null, null, null, null, null) : rows.get(index));
            }
            assertThat(taken.getRowCount()).isEqualTo(indices.length);
            assertThat(Batches.toRows(taken)).isEqualTo(expected);
        }
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }
}
