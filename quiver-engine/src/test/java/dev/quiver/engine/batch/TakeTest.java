package dev.quiver.engine.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
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

    /** The typed fixed-width paths (4, 8 and 16 bytes) against the row-by-row copy, on random rows, NULLs and padding. */
    @Test
    void fixedWidthTakeAgreesWithTheRowByRowCopy() {
        Random random = new Random(16);
        List<ArrowType> types = List.of(QuiverTypes.INT32, QuiverTypes.DATE32, QuiverTypes.INT64, QuiverTypes.TIMESTAMP, QuiverTypes.FLOAT64,
                QuiverTypes.decimal(15, 2), QuiverTypes.decimal(38, 4));
        Schema schema = new Schema(types.stream().map(type -> QuiverTypes.field(type.toString(), type, true)).toList());
        try (BufferAllocator allocator = new RootAllocator()) {
            for (int sourceRows : new int[] {1, 64, 100, 3000}) {
                List<List<Object>> rows = new ArrayList<>();
                for (int r = 0; r < sourceRows; r++) {
                    long v = random.nextInt(5) == 0 ? random.nextLong() >> random.nextInt(64) : random.nextInt(100) - 50;
                    List<Object> row = new ArrayList<>();
                    row.add((int) v);
                    row.add((int) v % 1_000_000);
                    row.add(v);
                    row.add(v);
                    row.add(v / 7.0);
                    row.add(BigDecimal.valueOf(v % 1_000_000_000_000L, 2));
                    row.add(new BigDecimal(BigInteger.valueOf(v).multiply(BigInteger.valueOf(v)), 4));
                    rows.add(row.stream().map(value -> random.nextInt(8) == 0 ? null : value).toList());
                }
                try (VectorSchemaRoot batch = Batches.fromRows(schema, rows, allocator)) {
                    // 5000: every width takes into OverwriteAllocation's buffers (see its MIN_BYTES)
                    for (int count : new int[] {0, 1, 63, 64, 65, 1000, 5000}) {
                        dirtyPooledMemory(allocator);
                        int[] indices = new int[count];
                        for (int i = 0; i < count; i++) {
                            indices[i] = random.nextInt(10) == 0 ? -1 : random.nextInt(sourceRows);
                        }
                        for (FieldVector source : batch.getFieldVectors()) {
                            try (FieldVector typed = Take.take(source, indices, count, allocator);
                                    FieldVector general = Take.takeByCopy(source, indices, count, allocator)) {
                                assertThat(typed.getValueCount()).isEqualTo(count);
                                for (int i = 0; i < count; i++) {
                                    assertThat(VectorValues.get(typed, i)).as("%s row %d of %d", source.getField(), i, count)
                                            .isEqualTo(VectorValues.get(general, i));
                                }
                                assertThat(typed.getNullCount()).isEqualTo(general.getNullCount());
                                int width = ((BaseFixedWidthVector) typed).getTypeWidth();
                                for (int i = 0; i < count; i++) {
                                    if (indices[i] < 0) {
                                        // a padding row's value is zero, as after allocateNew, not what the buffer held before
                                        for (int b = 0; b < width; b++) {
                                            assertThat(typed.getDataBuffer().getByte((long) i * width + b)).isZero();
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /** Leaves ones in memory the allocator's pool hands out next, so that a value nobody wrote shows. */
    static void dirtyPooledMemory(BufferAllocator allocator) {
        try (ArrowBuf dirty = allocator.buffer(1 << 20)) {
            dirty.setOne(0, (int) dirty.capacity());
        }
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }
}
