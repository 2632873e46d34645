package dev.quiver.engine.source.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArrowTableTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("id", QuiverTypes.INT64, false),
            QuiverTypes.field("name", QuiverTypes.UTF8, true),
            QuiverTypes.field("price", QuiverTypes.decimal(15, 2), true),
            QuiverTypes.field("day", QuiverTypes.DATE32, true)));

    @TempDir
    Path directory;

    private final TestingContext testing = new TestingContext();

    @AfterEach
    void close() {
        testing.close();
    }

    /** Writes {@code batches} batches of {@code rows} rows each: id = running number. */
    private Path write(String fileName, int batches, int rows) {
        Path file = directory.resolve(fileName);
        try (ArrowBatchWriter writer = ArrowBatchWriter.create(file, SCHEMA, testing.allocator())) {
            for (int b = 0; b < batches; b++) {
                List<List<Object>> data = new ArrayList<>();
                for (int r = 0; r < rows; r++) {
                    long id = (long) b * rows + r;
                    data.add(Arrays.asList(id, id % 3 == 0 ? null : "n" + id, BigDecimal.valueOf(id * 101, 2), (int) (id % 1000)));
                }
                try (VectorSchemaRoot batch = Batches.fromRows(SCHEMA, data, testing.allocator())) {
                    writer.write(batch);
                }
            }
            assertThat(writer.rowCount()).isEqualTo((long) batches * rows);
        }
        return file;
    }

    private static List<Object> expectedRow(long id) {
        return Arrays.asList(id, id % 3 == 0 ? null : "n" + id, BigDecimal.valueOf(id * 101, 2), (int) (id % 1000));
    }

    @Test
    void readsEveryBatchWithExactStatistics() {
        write("t.arrow", 5, 100);
        ArrowTable table = ArrowTable.open("t", directory.resolve("t.arrow"));
        assertThat(table.schema()).isEqualTo(SCHEMA);
        assertThat(table.batchCount()).isEqualTo(5);
        assertThat(table.statistics().rowCount().isExact()).isTrue();
        assertThat(table.statistics().rowCount().value()).isEqualTo(500);
        // name is NULL for every id divisible by 3: 167 of 0..499
        assertThat(table.statistics().columns().get(1).nullCount()).isEqualTo(Estimate.exact(167));
        assertThat(table.statistics().columns().get(0).nullCount()).isEqualTo(Estimate.exact(0));

        ExecutionPlan scan = table.scan(ScanRequest.all(2));
        assertThat(scan.outputPartitioning().partitionCount()).isEqualTo(2);
        assertThat(scan.partitionStatistics(OptionalInt.of(0)).rowCount().value()
                + scan.partitionStatistics(OptionalInt.of(1)).rowCount().value()).isEqualTo(500);
        List<List<Object>> rows = testing.rows(scan);
        assertThat(rows).containsExactlyInAnyOrderElementsOf(
                java.util.stream.LongStream.range(0, 500).mapToObj(ArrowTableTest::expectedRow).toList());
        assertThat(scan.metrics().outputRows()).isEqualTo(500);
    }

    @Test
    void readsADirectoryWithProjection() {
        write("a.arrow", 2, 10);
        write("b.feather", 1, 10);
        ArrowTable table = ArrowTable.open("t", directory);
        assertThat(table.files()).hasSize(2);
        ExecutionPlan scan = table.scan(new ScanRequest(Optional.of(List.of(2, 0)), List.of(), 4));
        assertThat(scan.schema().getFields()).containsExactly(SCHEMA.getFields().get(2), SCHEMA.getFields().get(0));
        assertThat(scan.outputPartitioning().partitionCount()).isEqualTo(3);
        List<List<Object>> rows = testing.rows(scan);
        assertThat(rows).hasSize(30).contains(List.of(BigDecimal.valueOf(1919, 2), 19L), List.of(BigDecimal.valueOf(505, 2), 5L));
    }

    @Test
    void countsRowsWithoutColumns() {
        write("t.arrow", 3, 7);
        ArrowTable table = ArrowTable.open("t", directory);
        ExecutionPlan scan = table.scan(new ScanRequest(Optional.of(List.of()), List.of(), 1));
        assertThat(testing.rows(scan)).hasSize(21);
    }

    @Test
    void missingPathNamesIt() {
        Path missing = directory.resolve("nope.arrow");
        assertThatThrownBy(() -> ArrowTable.open("t", missing))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR))
                .hasMessageContaining(missing.toString()).hasMessageContaining("does not exist");
    }

    @Test
    void fileThatIsNotArrowNamesIt() throws IOException {
        Path file = directory.resolve("bad.arrow");
        Files.writeString(file, "id,name\n1,x\n");
        assertThatThrownBy(() -> ArrowTable.open("t", file))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR))
                .hasMessageContaining("cannot read Arrow IPC file " + file);
    }

    @Test
    void truncatedFileNamesIt() throws IOException {
        Path file = write("t.arrow", 3, 50);
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
        assertThatThrownBy(() -> ArrowTable.open("t", file))
                .isInstanceOf(QuiverException.class)
                .hasMessageContaining(file.toString());
    }

    @Test
    void fileDamagedAfterOpeningFailsTheScanWithoutLeaks() throws IOException {
        Path file = write("t.arrow", 4, 200);
        ArrowTable table = ArrowTable.open("t", file);
        byte[] bytes = Files.readAllBytes(file);
        // keep the first batches, lose the rest and the footer
        Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
        assertThatThrownBy(() -> testing.rows(table.scan(ScanRequest.all(1))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR))
                .hasMessageContaining(file.toString());
        // TestingContext.close, after each test, fails on leaked buffers
    }

    @Test
    void directoriesWithDifferentSchemasAreRejected() {
        write("a.arrow", 1, 1);
        Schema other = new Schema(List.of(QuiverTypes.field("x", QuiverTypes.INT64, false)));
        try (ArrowBatchWriter writer = ArrowBatchWriter.create(directory.resolve("b.arrow"), other, testing.allocator())) {
            // an empty file with another schema
        }
        assertThatThrownBy(() -> ArrowTable.open("t", directory))
                .isInstanceOf(QuiverException.class)
                .hasMessageContaining("b.arrow").hasMessageContaining("unlike");
    }
}
