package dev.quiver.engine.source.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ParquetRoundTripTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("b", QuiverTypes.BOOLEAN, true),
            QuiverTypes.field("i", QuiverTypes.INT32, true),
            QuiverTypes.field("l", QuiverTypes.INT64, true),
            QuiverTypes.field("d", QuiverTypes.FLOAT64, true),
            QuiverTypes.field("dec9", QuiverTypes.decimal(9, 3), true),
            QuiverTypes.field("dec15", QuiverTypes.decimal(15, 2), true),
            QuiverTypes.field("dec38", QuiverTypes.decimal(38, 10), true),
            QuiverTypes.field("s", QuiverTypes.UTF8, true),
            QuiverTypes.field("day", QuiverTypes.DATE32, true),
            QuiverTypes.field("ts", QuiverTypes.TIMESTAMP, true),
            QuiverTypes.field("k", QuiverTypes.INT64, false)));

    @TempDir
    Path dir;

    static List<List<Object>> rows(int count) {
        List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < count; r++) {
            if (r % 7 == 3) {
                rows.add(Arrays.asList(null, null, null, null, null, null, null, null, null, null, (long) r));
                continue;
            }
            rows.add(Arrays.asList(
                    r % 2 == 0,
                    r - 500,
                    (long) r * 1_000_000_007L,
                    r / 4.0 - 10,
                    BigDecimal.valueOf(r * 7L - 1000, 3),
                    BigDecimal.valueOf(r * 123_456_789L - 5, 2),
                    new BigDecimal("-12345678901234567890.0123456789").add(BigDecimal.valueOf(r, 10)),
                    r % 5 == 0 ? "" : "value-" + r + (r % 3 == 0 ? "-ünïcödé-€" : ""),
                    10_000 + r,
                    1_600_000_000_000_000L + r * 1_000_001L,
                    (long) r));
        }
        return rows;
    }

    static Stream<Arguments> layouts() {
        return Stream.of(
                Arguments.of(ParquetWriteOptions.Compression.SNAPPY, true),
                Arguments.of(ParquetWriteOptions.Compression.SNAPPY, false),
                Arguments.of(ParquetWriteOptions.Compression.ZSTD, true),
                Arguments.of(ParquetWriteOptions.Compression.GZIP, false),
                Arguments.of(ParquetWriteOptions.Compression.LZ4_RAW, true),
                Arguments.of(ParquetWriteOptions.Compression.UNCOMPRESSED, false));
    }

    @ParameterizedTest(name = "{0}, dictionary={1}")
    @MethodSource("layouts")
    void everyTypeWithNullsSurvivesAWriteAndARead(ParquetWriteOptions.Compression compression, boolean dictionary) {
        List<List<Object>> expected = rows(1000);
        Path file = dir.resolve("all.parquet");
        try (TestingContext testing = new TestingContext()) {
            try (VectorSchemaRoot batch = Batches.fromRows(SCHEMA, expected, testing.allocator())) {
                ParquetFiles.WriteResult result = ParquetFiles.write(SCHEMA, List.of(batch).iterator(), file,
                        ParquetWriteOptions.defaults().withRowGroupRows(300).withCompression(compression).withDictionary(dictionary));
                assertThat(result.rowCount()).isEqualTo(1000);
                assertThat(result.rowGroupCount()).isEqualTo(4);
            }
            ParquetTable table = ParquetTable.open("t", file);
            assertThat(table.schema()).isEqualTo(SCHEMA);
            assertThat(table.rowGroupCount()).isEqualTo(4);
            assertThat(table.statistics().rowCount().isExact()).isTrue();
            assertThat(table.statistics().rowCount().value()).isEqualTo(1000);

            ExecutionPlan scan = table.scan(ScanRequest.all(1));
            assertThat(testing.rows(scan)).isEqualTo(expected);
        }
    }

    @Test
    void batchesThatStraddlePagesAtOddOffsetsDecodeExactly() {
        // parquet-java cuts pages at 20,000 rows: 50,001 rows make three pages in one row group, and
        // 777-row batches cross page boundaries at offsets that are not multiples of eight
        List<List<Object>> expected = rows(50_001);
        Path file = dir.resolve("pages.parquet");
        try (TestingContext testing = new TestingContext().withBatchSize(777)) {
            try (VectorSchemaRoot batch = Batches.fromRows(SCHEMA, expected, testing.allocator())) {
                ParquetFiles.write(SCHEMA, List.of(batch).iterator(), file, ParquetWriteOptions.defaults());
            }
            ParquetTable table = ParquetTable.open("t", file);
            assertThat(table.rowGroupCount()).isEqualTo(1);
            assertThat(testing.rows(table.scan(ScanRequest.all(1)))).isEqualTo(expected);
        }
    }

    @Test
    void statisticsComeFromTheFooters() {
        Path file = dir.resolve("stats.parquet");
        List<List<Object>> rows = rows(100);
        try (TestingContext testing = new TestingContext()) {
            try (VectorSchemaRoot batch = Batches.fromRows(SCHEMA, rows, testing.allocator())) {
                ParquetFiles.write(SCHEMA, List.of(batch).iterator(), file, ParquetWriteOptions.defaults().withRowGroupRows(40));
            }
        }
        ParquetTable table = ParquetTable.open("t", file);
        ColumnStatistics ints = table.statistics().columns().get(1);
        long nulls = rows.stream().filter(row -> row.get(1) == null).count();
        assertThat(ints.nullCount().isExact()).isTrue();
        assertThat(ints.nullCount().value()).isEqualTo(nulls);
        assertThat(ints.min()).contains(-500);
        assertThat(ints.max()).contains(99 - 500);
        assertThat(ints.boundsExact()).isTrue();
        ColumnStatistics decimals = table.statistics().columns().get(5);
        assertThat(decimals.min()).contains(BigDecimal.valueOf(-5, 2));
        assertThat(decimals.max()).contains(BigDecimal.valueOf(99 * 123_456_789L - 5, 2));
        ColumnStatistics keys = table.statistics().columns().get(10);
        assertThat(keys.nullCount().value()).isZero();
        assertThat(keys.min()).isEqualTo(Optional.of(0L));
        assertThat(keys.max()).isEqualTo(Optional.of(99L));
    }
}
