package dev.quiver.engine.source.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvTableTest {
    private static final Schema ALL_TYPES = new Schema(List.of(
            QuiverTypes.field("id", QuiverTypes.INT64, true),
            QuiverTypes.field("small", QuiverTypes.INT32, true),
            QuiverTypes.field("ratio", QuiverTypes.FLOAT64, true),
            QuiverTypes.field("price", QuiverTypes.decimal(15, 2), true),
            QuiverTypes.field("day", QuiverTypes.DATE32, true),
            QuiverTypes.field("at", QuiverTypes.TIMESTAMP, true),
            QuiverTypes.field("flag", QuiverTypes.BOOLEAN, true),
            QuiverTypes.field("note", QuiverTypes.UTF8, true)));

    @TempDir
    Path directory;

    private final TestingContext testing = new TestingContext();

    @AfterEach
    void close() {
        testing.close();
    }

    private static long micros(String isoTime) {
        LocalDateTime time = LocalDateTime.parse(isoTime);
        return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + time.getNano() / 1000;
    }

    private static List<List<Object>> allTypesRows() {
        List<List<Object>> rows = new ArrayList<>();
        rows.add(Arrays.asList(1L, 7, 0.5, new BigDecimal("12.30"), (int) LocalDate.parse("1998-12-01").toEpochDay(),
                micros("2024-02-29T13:45:07.123456"), true, "plain"));
        rows.add(Arrays.asList(null, null, null, null, null, null, null, null));
        rows.add(Arrays.asList(-9_000_000_000L, -3, -1.25e10, new BigDecimal("-0.05"), (int) LocalDate.parse("1970-01-01").toEpochDay(),
                micros("1969-12-31T23:59:00"), false, "comma, \"quote\" and\nnewline"));
        rows.add(Arrays.asList(4L, 0, 3.0, new BigDecimal("9999999999999.99"), 0, 0L, true, ""));
        rows.add(Arrays.asList(5L, 1, Double.NaN, new BigDecimal("0.00"), 1, 1L, false, "ünïcødé ✓"));
        return rows;
    }

    private Path writeAllTypes(String fileName) {
        Path file = directory.resolve(fileName);
        try (CsvBatchWriter writer = CsvBatchWriter.create(file, ALL_TYPES);
                VectorSchemaRoot batch = Batches.fromRows(ALL_TYPES, allTypesRows(), testing.allocator())) {
            writer.write(batch);
            assertThat(writer.rowCount()).isEqualTo(5);
        }
        return file;
    }

    @Test
    void roundTripsEveryTypeWithNullsAndQuotingGivenTheSchema() {
        Path file = writeAllTypes("all.csv");
        CsvTable table = CsvTable.open("t", file, Optional.of(ALL_TYPES));
        assertThat(testing.rows(table.scan(ScanRequest.all(1)))).containsExactlyElementsOf(allTypesRows());
    }

    @Test
    void writesPlainDecimalsIsoDatesAndQuotesOnlyWhenNeeded() throws IOException {
        Path file = writeAllTypes("all.csv");
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines.get(0)).isEqualTo("id,small,ratio,price,day,at,flag,note");
        assertThat(lines.get(1)).isEqualTo("1,7,0.5,12.30,1998-12-01,2024-02-29 13:45:07.123456,true,plain");
        assertThat(lines.get(2)).isEqualTo(",,,,,,,");
        assertThat(lines.get(3)).isEqualTo("-9000000000,-3,-1.25E10,-0.05,1970-01-01,1969-12-31 23:59:00,false,\"comma, \"\"quote\"\" and");
        assertThat(lines.get(5)).isEqualTo("4,0,3.0,9999999999999.99,1970-01-01,1970-01-01 00:00:00,true,\"\"");
    }

    @Test
    void infersTypesFromASample() {
        Path file = writeAllTypes("all.csv");
        CsvTable table = CsvTable.open("t", file, Optional.empty());
        assertThat(table.schema().getFields().stream().map(Field::getType).toList()).containsExactly(
                QuiverTypes.INT64, QuiverTypes.INT64, QuiverTypes.FLOAT64, QuiverTypes.decimal(18, 2),
                QuiverTypes.DATE32, QuiverTypes.TIMESTAMP, QuiverTypes.BOOLEAN, QuiverTypes.UTF8);
        List<List<Object>> rows = testing.rows(table.scan(ScanRequest.all(1)));
        assertThat(rows).hasSize(5);
        assertThat(rows.get(0)).containsExactly(1L, 7L, 0.5, new BigDecimal("12.30"), (int) LocalDate.parse("1998-12-01").toEpochDay(),
                micros("2024-02-29T13:45:07.123456"), true, "plain");
        assertThat(rows.get(2).get(7)).isEqualTo("comma, \"quote\" and\nnewline");
        assertThat(table.statistics().rowCount().isExact()).isFalse();
        assertThat(table.statistics().rowCount().value()).isBetween(3L, 8L);
    }

    @Test
    void projectsColumnsAndSplitsByFile() throws IOException {
        Files.writeString(directory.resolve("a.csv"), "x,y\n1,a\n2,b\n");
        Files.writeString(directory.resolve("b.csv"), "x,y\r\n3,c\r\n\r\n4,\"d\"\r\n");
        Files.writeString(directory.resolve("notes.txt"), "not part of the table");
        CsvTable table = CsvTable.open("t", directory, Optional.empty());
        ExecutionPlan scan = table.scan(new ScanRequest(Optional.of(List.of(1, 0)), List.of(), 4));
        assertThat(scan.outputPartitioning().partitionCount()).isEqualTo(2);
        assertThat(testing.rows(scan)).containsExactlyInAnyOrder(
                List.of("a", 1L), List.of("b", 2L), List.of("c", 3L), List.of("d", 4L));
        assertThat(scan.metrics().outputRows()).isEqualTo(4);
        assertThat(testing.rows(table.scan(new ScanRequest(Optional.of(List.of()), List.of(), 1)))).hasSize(4);
    }

    private Path numbered(String fileName, int rows, int badLine) throws IOException {
        StringBuilder text = new StringBuilder("n,s,d\n");
        for (int i = 0; i < rows; i++) {
            // line i + 2; quoted fields with commas, some empty
            text.append(i + 2 == badLine ? "oops" : Integer.toString(i)).append(",\"v, ").append(i).append("\",")
                    .append(i % 7 == 0 ? "" : "1.5").append('\n');
        }
        Path file = directory.resolve(fileName);
        Files.writeString(file, text);
        return file;
    }

    @Test
    void largeFilesAreSplitAtLineStartsWithoutLosingOrDuplicatingRows() throws IOException {
        Path file = numbered("split.csv", 50_000, -1);
        CsvTable whole = CsvTable.open("t", file, Optional.empty());
        CsvTable split = CsvTable.open("t", file, Optional.empty(), 10_000);
        ExecutionPlan scan = split.scan(ScanRequest.all(3));
        assertThat(scan.displayLine()).contains("files=1", "splits=");
        assertThat(scan.outputPartitioning().partitionCount()).isEqualTo(3);
        List<List<Object>> rows = testing.rows(scan);
        assertThat(rows).hasSize(50_000).containsExactlyInAnyOrderElementsOf(testing.rows(whole.scan(ScanRequest.all(1))));
        assertThat(rows.stream().mapToLong(row -> (Long) row.get(0)).sum()).isEqualTo(49_999L * 50_000 / 2);
    }

    @Test
    void errorsInALaterRangeNameTheFileLine() throws IOException {
        Path file = numbered("late.csv", 50_000, 40_001);
        CsvTable split = CsvTable.open("t", file, Optional.empty(), 10_000);
        assertThatThrownBy(() -> testing.rows(split.scan(ScanRequest.all(4))))
                .isInstanceOf(QuiverException.class)
                .hasMessageStartingWith("CSV file " + file + " line 40001, column 'n': 'oops' is not an integer");
    }

    @Test
    void aQuotedLineBreakInTheSampleKeepsFilesWhole() throws IOException {
        StringBuilder text = new StringBuilder("n,s\n1,\"two\nlines\"\n");
        for (int i = 0; i < 20_000; i++) {
            text.append(i).append(",x\n");
        }
        Path file = directory.resolve("multiline.csv");
        Files.writeString(file, text);
        ExecutionPlan scan = CsvTable.open("t", file, Optional.empty(), 10_000).scan(ScanRequest.all(3));
        assertThat(scan.outputPartitioning().partitionCount()).isEqualTo(1);
        assertThat(testing.rows(scan)).hasSize(20_001).contains(List.of(1L, "two\nlines"));
    }

    @Test
    void skipsAByteOrderMark() throws IOException {
        Path file = directory.resolve("bom.csv");
        Files.write(file, ("\uFEFFname,n\nx,1\n").getBytes(StandardCharsets.UTF_8));
        CsvTable table = CsvTable.open("t", file, Optional.empty());
        assertThat(table.schema().getFields().get(0).getName()).isEqualTo("name");
        assertThat(testing.rows(table.scan(ScanRequest.all(1)))).containsExactly(List.of("x", 1L));
    }

    @Test
    void manyRowsSpanBatchesAndBuffers() throws IOException {
        StringBuilder text = new StringBuilder("n,s\n");
        for (int i = 0; i < 300_000; i++) {
            text.append(i).append(",\"v").append(i).append("\"\n");
        }
        Path file = directory.resolve("big.csv");
        Files.writeString(file, text);
        CsvTable table = CsvTable.open("t", file, Optional.empty());
        List<List<Object>> rows = testing.rows(table.scan(ScanRequest.all(1)));
        assertThat(rows).hasSize(300_000);
        assertThat(rows.get(299_999)).containsExactly(299_999L, "v299999");
        assertThat(rows.stream().mapToLong(row -> (Long) row.get(0)).sum()).isEqualTo(299_999L * 300_000 / 2);
    }

    @Test
    void wrongNumberOfFieldsNamesFileAndLine() throws IOException {
        Path file = directory.resolve("bad.csv");
        Files.writeString(file, "a,b\n1,2\n\"multi\nline\",3\n4,5,6\n");
        Schema schema = new Schema(List.of(QuiverTypes.field("a", QuiverTypes.UTF8, true), QuiverTypes.field("b", QuiverTypes.INT64, true)));
        // the bad row is in the sample: opening the table finds it
        assertThatThrownBy(() -> CsvTable.open("t", file, Optional.of(schema)))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR))
                .hasMessage("CSV file " + file + " line 5: expected 2 fields as in the header, found 3 (ignore_errors = true skips such rows)");
    }

    @Test
    void wrongNumberOfFieldsAfterTheSampleFailsTheScan() throws IOException {
        StringBuilder text = new StringBuilder("n,s\n");
        for (int i = 0; i < CsvOptions.DEFAULT_SAMPLE_ROWS + 20; i++) {
            text.append(i).append(",x\n");
        }
        text.append("1,2,3\n");
        Path file = directory.resolve("late.csv");
        Files.writeString(file, text);
        CsvTable table = CsvTable.open("t", file, Optional.empty());
        assertThatThrownBy(() -> testing.rows(table.scan(ScanRequest.all(1))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR))
                .hasMessage("CSV file " + file + " line " + (CsvOptions.DEFAULT_SAMPLE_ROWS + 22)
                        + ": expected 2 fields as in the header, found 3 (ignore_errors = true skips such rows)");
    }

    @Test
    void wrongNumberOfFieldsInTheSampleFailsTheOpen() throws IOException {
        Path file = directory.resolve("bad.csv");
        Files.writeString(file, "a,b\n1,2\n3\n");
        assertThatThrownBy(() -> CsvTable.open("t", file, Optional.empty()))
                .isInstanceOf(QuiverException.class)
                .hasMessage("CSV file " + file + " line 3: expected 2 fields as in the header, found 1 (ignore_errors = true skips such rows)");
    }

    @Test
    void valueThatDoesNotReadAsItsTypeNamesFileLineAndColumn() throws IOException {
        Path file = directory.resolve("bad.csv");
        Files.writeString(file, "id,day\n1,2024-01-01\n2,2024-02-30\n");
        CsvTable table = CsvTable.open("t", file, Optional.of(new Schema(List.of(
                QuiverTypes.field("id", QuiverTypes.INT64, true), QuiverTypes.field("day", QuiverTypes.DATE32, true)))));
        assertThatThrownBy(() -> testing.rows(table.scan(ScanRequest.all(1))))
                .isInstanceOf(QuiverException.class)
                .hasMessageContaining("CSV file " + file + " line 3, column 'day': '2024-02-30' is not a date");

        Path numbers = directory.resolve("numbers.csv");
        Files.writeString(numbers, "id\n1\n12x\n");
        CsvTable numberTable = CsvTable.open("n", numbers, Optional.of(new Schema(List.of(QuiverTypes.field("id", QuiverTypes.INT64, true)))));
        assertThatThrownBy(() -> testing.rows(numberTable.scan(ScanRequest.all(1))))
                .isInstanceOf(QuiverException.class)
                .hasMessageContaining("CSV file " + numbers + " line 3, column 'id': '12x' is not an integer");
    }

    @Test
    void unclosedQuoteNamesTheLineWhereTheRowStarts() throws IOException {
        Path file = directory.resolve("bad.csv");
        Files.writeString(file, "a\nx\n\"open\n\n");
        assertThatThrownBy(() -> CsvTable.open("t", file, Optional.of(new Schema(List.of(QuiverTypes.field("a", QuiverTypes.UTF8, true))))))
                .isInstanceOf(QuiverException.class)
                .hasMessage("CSV file " + file + " line 3: a quoted field is not closed before the end of the file");
    }

    @Test
    void missingPathEmptyAndBinaryFilesNameTheFile() throws IOException {
        Path missing = directory.resolve("missing.csv");
        assertThatThrownBy(() -> CsvTable.open("t", missing, Optional.empty()))
                .isInstanceOf(QuiverException.class).hasMessageContaining(missing + " does not exist");
        Path empty = directory.resolve("empty.csv");
        Files.writeString(empty, "");
        assertThatThrownBy(() -> CsvTable.open("t", empty, Optional.empty()))
                .isInstanceOf(QuiverException.class).hasMessageContaining("CSV file " + empty + " is empty");
        Path binary = directory.resolve("binary.csv");
        Files.write(binary, new byte[] {'A', 'R', 'R', 'O', 'W', '1', 0, 0, 1, 2, 3, '\n', 0, 0});
        assertThatThrownBy(() -> CsvTable.open("t", binary, Optional.empty()))
                .isInstanceOf(QuiverException.class).hasMessageContaining("CSV file " + binary + " line 1").hasMessageContaining("not a text CSV file");
    }

    @Test
    void headerMustMatchTheGivenColumns() throws IOException {
        Path file = directory.resolve("t.csv");
        Files.writeString(file, "a,b,c\n1,2,3\n");
        assertThatThrownBy(() -> CsvTable.open("t", file, Optional.of(new Schema(List.of(QuiverTypes.field("a", QuiverTypes.INT64, true))))))
                .isInstanceOf(QuiverException.class)
                .hasMessageContaining("CSV file " + file + " line 1: the header has 3 columns, but the table has 1");
    }
}
