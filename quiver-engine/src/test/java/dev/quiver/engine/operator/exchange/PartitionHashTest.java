package dev.quiver.engine.operator.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PartitionHashTest {
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Test
    void xxHash64MatchesReferenceVectors() {
        assertThat(PartitionHash.xxHash64(bytes(""), 0)).isEqualTo(0xEF46DB3751D8E999L);
        assertThat(PartitionHash.xxHash64(bytes("a"), 0)).isEqualTo(0xD24EC4F1A98C6E5BL);
        assertThat(PartitionHash.xxHash64(bytes("abc"), 0)).isEqualTo(0x44BC2CF5AD770999L);
        assertThat(PartitionHash.xxHash64(bytes("Nobody inspects the spammish repetition"), 0)).isEqualTo(0xFBCEA83C8A378BF1L);
    }

    @Test
    void hashOfLongIsXxHash64OfItsBytes() {
        for (long value : new long[] {0, 1, -1, 42, Long.MIN_VALUE, Long.MAX_VALUE, 123456789012345L}) {
            byte[] bytes = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
            assertThat(PartitionHash.hashLong(value, 7)).isEqualTo(PartitionHash.xxHash64(bytes, 7));
        }
    }

    @Test
    void integersOfAnyWidthHashAlike() {
        List<List<Object>> ints = rows(0, 1, -1, 7, 1000, Integer.MAX_VALUE, Integer.MIN_VALUE, null);
        List<List<Object>> longs = rows(0L, 1L, -1L, 7L, 1000L, (long) Integer.MAX_VALUE, (long) Integer.MIN_VALUE, null);
        assertThat(vectorHashes(QuiverTypes.INT32, ints)).containsExactly(vectorHashes(QuiverTypes.INT64, longs));
        assertThat(vectorHashes(QuiverTypes.INT32, ints)).doesNotHaveDuplicates();
    }

    @Test
    void anInt32AndAnInt64KeyOfEqualValueGoToTheSamePartition() {
        // a shuffle's producers may see a key as INT on one side and BIGINT on the other
        List<List<Object>> ints = new ArrayList<>();
        List<List<Object>> longs = new ArrayList<>();
        for (int i = -50; i < 200; i += 3) {
            ints.add(Arrays.asList(i));
            longs.add(Arrays.asList((long) i));
        }
        Schema intSchema = new Schema(List.of(QuiverTypes.field("k", QuiverTypes.INT32, true)));
        Schema longSchema = new Schema(List.of(QuiverTypes.field("k", QuiverTypes.INT64, true)));
        try (VectorSchemaRoot intBatch = Batches.fromRows(intSchema, ints, allocator);
                VectorSchemaRoot longBatch = Batches.fromRows(longSchema, longs, allocator)) {
            for (int partitions : new int[] {2, 6, 12, 7}) {
                int[] fromInts = PartitionHash.partitions(intBatch.getFieldVectors(), intBatch.getRowCount(), partitions);
                assertThat(fromInts).containsExactly(PartitionHash.partitions(longBatch.getFieldVectors(), longBatch.getRowCount(), partitions));
                assertThat(Arrays.stream(fromInts).distinct().count()).as("rows spread over the %d partitions", partitions).isEqualTo(partitions);
            }
        }
    }

    @Test
    void decimalsOfAnyScaleHashAlike() {
        long[] scale2 = vectorHashes(QuiverTypes.decimal(15, 2), rows(new BigDecimal("1.50"), new BigDecimal("2.00"), new BigDecimal("-0.10"), new BigDecimal("0.00")));
        long[] scale1 = vectorHashes(QuiverTypes.decimal(10, 1), rows(new BigDecimal("1.5"), new BigDecimal("2.0"), new BigDecimal("-0.1"), new BigDecimal("0.0")));
        long[] scale0 = vectorHashes(QuiverTypes.decimal(10, 0), rows(new BigDecimal("7"), new BigDecimal("2"), new BigDecimal("3"), new BigDecimal("0")));
        long[] integers = vectorHashes(QuiverTypes.INT64, rows(7L, 2L, 3L, 0L));
        assertThat(scale2).containsExactly(scale1);
        assertThat(scale2[1]).isEqualTo(scale0[1]).isEqualTo(integers[1]);
        assertThat(scale2[3]).isEqualTo(integers[3]);
        assertThat(scale2[0]).isNotEqualTo(integers[0]);
        assertThat(scale0).containsExactly(integers);
    }

    @Test
    void wideDecimalsNormalizeToo() {
        long[] wide2 = vectorHashes(QuiverTypes.decimal(38, 2), rows(new BigDecimal("123456789012345678901234.50"), new BigDecimal("99999999999999999999.00")));
        long[] wide1 = vectorHashes(QuiverTypes.decimal(38, 1), rows(new BigDecimal("123456789012345678901234.5"), new BigDecimal("99999999999999999999.0")));
        long[] wide0 = vectorHashes(QuiverTypes.decimal(38, 0), rows(new BigDecimal("1"), new BigDecimal("99999999999999999999")));
        assertThat(wide2).containsExactly(wide1);
        assertThat(wide2[1]).isEqualTo(wide0[1]);
        // a 38-digit value whose stripped form fits a long hashes like that long
        long[] stripped = vectorHashes(QuiverTypes.decimal(38, 18), rows(new BigDecimal("12.000000000000000000")));
        assertThat(stripped[0]).isEqualTo(vectorHashes(QuiverTypes.INT32, rows(12))[0]);
    }

    /** INTEGER, DATE, BIGINT and TIMESTAMP columns are hashed off their buffers: the same hashes as the values, NULLs or not. */
    @Test
    void integerColumnHashesAgreeWithValueHashesOnRandomRows() {
        Schema schema = new Schema(List.of(
                QuiverTypes.field("i", QuiverTypes.INT32, true),
                QuiverTypes.field("t", QuiverTypes.DATE32, true),
                QuiverTypes.field("l", QuiverTypes.INT64, true),
                QuiverTypes.field("ts", QuiverTypes.TIMESTAMP, true)));
        java.util.Random random = new java.util.Random(64);
        for (int rowCount : new int[] {1, 7, 64, 1000}) {
            for (boolean withNulls : new boolean[] {false, true}) {
                List<List<Object>> rows = new ArrayList<>();
                for (int r = 0; r < rowCount; r++) {
                    long v = random.nextInt(4) == 0 ? random.nextLong() : random.nextInt(1000) - 500;
                    List<Object> row = Arrays.asList((int) v, (int) v, v, v);
                    rows.add(row.stream().map(value -> withNulls && random.nextInt(5) == 0 ? null : value).toList());
                }
                try (VectorSchemaRoot batch = Batches.fromRows(schema, rows, allocator)) {
                    long[] hashes = PartitionHash.hashRows(batch.getFieldVectors(), batch.getRowCount());
                    for (int r = 0; r < rowCount; r++) {
                        assertThat(hashes[r]).as("row %d of %d", r, rowCount).isEqualTo(PartitionHash.hashRow(rows.get(r)));
                    }
                }
            }
        }
    }

    @Test
    void vectorHashesAgreeWithValueHashes() {
        Schema schema = new Schema(List.of(
                QuiverTypes.field("i", QuiverTypes.INT32, true),
                QuiverTypes.field("s", QuiverTypes.UTF8, true),
                QuiverTypes.field("d", QuiverTypes.decimal(15, 2), true),
                QuiverTypes.field("f", QuiverTypes.FLOAT64, true),
                QuiverTypes.field("b", QuiverTypes.BOOLEAN, true),
                QuiverTypes.field("t", QuiverTypes.DATE32, true),
                QuiverTypes.field("l", QuiverTypes.INT64, true)));
        List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < 200; r++) {
            rows.add(Arrays.asList(r % 7 == 0 ? null : r, r % 5 == 0 ? null : "value-" + "x".repeat(r % 40) + r,
                    r % 9 == 0 ? null : BigDecimal.valueOf(r * 37L - 500, 2), r % 11 == 0 ? null : r / 3.0,
                    r % 13 == 0 ? null : r % 2 == 0, r % 3 == 0 ? null : 9000 + r, (long) r * 1_000_000_007L));
        }
        try (VectorSchemaRoot batch = Batches.fromRows(schema, rows, allocator)) {
            long[] hashes = PartitionHash.hashRows(batch.getFieldVectors(), batch.getRowCount());
            int[] partitions = PartitionHash.partitions(batch.getFieldVectors(), batch.getRowCount(), 5);
            for (int r = 0; r < rows.size(); r++) {
                assertThat(hashes[r]).as("row %d", r).isEqualTo(PartitionHash.hashRow(rows.get(r)));
                assertThat(partitions[r]).isEqualTo(PartitionHash.partition(hashes[r], 5));
            }
        }
    }

    @Test
    void negativeZeroAndZeroHashAlike() {
        assertThat(PartitionHash.hashValue(-0.0, 1)).isEqualTo(PartitionHash.hashValue(0.0, 1));
    }

    @Test
    void spreadsValuesEvenly() {
        int[] counts = new int[8];
        for (long v = 0; v < 80_000; v++) {
            counts[PartitionHash.partition(PartitionHash.hashRow(List.of(v)), 8)]++;
        }
        assertThat(Arrays.stream(counts).boxed().toList()).allSatisfy(c -> assertThat(c).isBetween(9_500, 10_500));
    }

    /** Changing these numbers moves rows between partitions everywhere: only on purpose. */
    @Test
    void partitionsAreStable() {
        assertThat(partitionsOf(8, List.of(0L), List.of(1L), List.of(42L), List.of(-5L), List.of(1_000_000_007L)))
                .containsExactly(EXPECTED_LONG_PARTITIONS);
        assertThat(partitionsOf(16, List.of("ALGERIA"), List.of(""), List.of("a considerably longer string, over 32 bytes"), Arrays.asList((Object) null)))
                .containsExactly(EXPECTED_STRING_PARTITIONS);
        assertThat(partitionsOf(7, List.of(new BigDecimal("1.50"), 3L), List.of(new BigDecimal("0.07"), 3L), List.of(new BigDecimal("100.00"), -3L)))
                .containsExactly(EXPECTED_MIXED_PARTITIONS);
        assertThat(PartitionHash.hashRow(List.of(1L))).isEqualTo(EXPECTED_HASH_OF_ONE);
    }

    private static final int[] EXPECTED_LONG_PARTITIONS = {6, 7, 5, 4, 7};
    private static final int[] EXPECTED_STRING_PARTITIONS = {15, 9, 10, 11};
    private static final int[] EXPECTED_MIXED_PARTITIONS = {1, 4, 2};
    private static final long EXPECTED_HASH_OF_ONE = 0x8a36bae30928ea97L;

    @SafeVarargs
    private static int[] partitionsOf(int count, List<Object>... rows) {
        int[] result = new int[rows.length];
        for (int i = 0; i < rows.length; i++) {
            result[i] = PartitionHash.partition(PartitionHash.hashRow(rows[i]), count);
        }
        return result;
    }

    private long[] vectorHashes(ArrowType type, List<List<Object>> rows) {
        Schema schema = new Schema(List.of(QuiverTypes.field("k", type, true)));
        try (VectorSchemaRoot batch = Batches.fromRows(schema, rows, allocator)) {
            return PartitionHash.hashRows(batch.getFieldVectors(), batch.getRowCount());
        }
    }

    private static List<List<Object>> rows(Object... values) {
        List<List<Object>> rows = new ArrayList<>();
        for (Object value : values) {
            rows.add(Arrays.asList(value));
        }
        return rows;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
