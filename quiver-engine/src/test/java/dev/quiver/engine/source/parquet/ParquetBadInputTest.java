package dev.quiver.engine.source.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each bad input gives one QuiverException naming the file, and leaks nothing. */
class ParquetBadInputTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("k", QuiverTypes.INT64, false),
            QuiverTypes.field("s", QuiverTypes.UTF8, true)));

    @TempDir
    Path dir;

    @Test
    void missingPath() {
        Path missing = dir.resolve("nope.parquet");
        assertThatThrownBy(() -> ParquetTable.open("t", missing))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR))
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("does not exist");
    }

    @Test
    void directoryWithoutParquetFiles() throws IOException {
        Files.writeString(dir.resolve("readme.txt"), "not data");
        assertThatThrownBy(() -> ParquetTable.open("t", dir))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR))
                .hasMessageContaining(dir.toString())
                .hasMessageContaining("holds no Parquet files (.parquet)");
    }

    @Test
    void fileThatIsNotParquet() throws IOException {
        Path file = dir.resolve("data.parquet");
        Files.writeString(file, "id,name\n1,alice\n2,bob\n", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ParquetTable.open("t", file))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR))
                .hasMessageContaining("cannot read Parquet file " + file);
    }

    @Test
    void truncatedFile() throws IOException {
        Path file = writeValidFile("t.parquet");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(raf.length() / 2);
        }
        assertThatThrownBy(() -> ParquetTable.open("t", file))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR))
                .hasMessageContaining("cannot read Parquet file " + file);
    }

    @Test
    void corruptPagesFailTheScanNamingFileAndRowGroup() throws IOException {
        Path file = writeValidFile("c.parquet");
        ParquetTable table = ParquetTable.open("t", file);
        // overwrite the first column chunk (page header and data) right after the leading magic bytes
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(4);
            byte[] garbage = new byte[64];
            java.util.Arrays.fill(garbage, (byte) 0xFF);
            raf.write(garbage);
        }
        try (TestingContext testing = new TestingContext()) {
            assertThatThrownBy(() -> testing.rows(table.scan(ScanRequest.all(1))))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR))
                    .hasMessageContaining("row group 0 of Parquet file " + file);
        }
    }

    @Test
    void columnTypeThatCannotBeRead() throws IOException {
        Path file = dir.resolve("nested.parquet");
        MessageType schema = Types.buildMessage()
                .required(PrimitiveTypeName.INT64).named("id")
                .requiredGroup().required(PrimitiveTypeName.INT32).named("x").named("point")
                .named("schema");
        writeEmpty(file, schema);
        assertThatThrownBy(() -> ParquetTable.open("t", file))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessageContaining("column 'point'")
                .hasMessageContaining(file.toString());

        Path unsigned = dir.resolve("unsigned.parquet");
        writeEmpty(unsigned, Types.buildMessage()
                .required(PrimitiveTypeName.INT64).as(LogicalTypeAnnotation.intType(64, false)).named("big")
                .named("schema"));
        assertThatThrownBy(() -> ParquetTable.open("t", unsigned))
                .isInstanceOf(QuiverException.class)
                .hasMessageContaining("column 'big'")
                .hasMessageContaining(unsigned.toString());
    }

    @Test
    void filesWithDifferentColumns() throws IOException {
        writeValidFile("a.parquet");
        writeEmpty(dir.resolve("b.parquet"), Types.buildMessage().required(PrimitiveTypeName.INT32).named("other").named("schema"));
        assertThatThrownBy(() -> ParquetTable.open("t", dir))
                .isInstanceOf(QuiverException.class)
                .hasMessageContaining(dir.resolve("b.parquet").toString());
    }

    @Test
    void writingANullIntoANotNullColumnFailsAndRemovesThePartialFile() {
        Path file = dir.resolve("w.parquet");
        try (TestingContext testing = new TestingContext()) {
            Schema nullable = new Schema(List.of(QuiverTypes.field("k", QuiverTypes.INT64, true), QuiverTypes.field("s", QuiverTypes.UTF8, true)));
            List<List<Object>> rows = new ArrayList<>();
            rows.add(java.util.Arrays.asList(null, "x"));
            try (VectorSchemaRoot batch = Batches.fromRows(nullable, rows, testing.allocator());
                    ParquetBatchWriter writer = ParquetBatchWriter.create(file, SCHEMA, ParquetWriteOptions.defaults())) {
                assertThatThrownBy(() -> writer.write(batch))
                        .isInstanceOf(QuiverException.class)
                        .hasMessageContaining("NOT NULL");
            }
        }
        assertThat(file).doesNotExist();
    }

    private Path writeValidFile(String name) {
        Path file = dir.resolve(name);
        List<List<Object>> rows = new ArrayList<>();
        for (long i = 0; i < 5000; i++) {
            rows.add(List.of(i, "row " + i));
        }
        try (TestingContext testing = new TestingContext();
                VectorSchemaRoot batch = Batches.fromRows(SCHEMA, rows, testing.allocator())) {
            ParquetFiles.write(SCHEMA, List.of(batch).iterator(), file, ParquetWriteOptions.defaults().withDictionary(false));
        }
        return file;
    }

    private static void writeEmpty(Path file, MessageType schema) throws IOException {
        ParquetFileWriter writer = new ParquetFileWriter(new LocalOutputFile(file), schema, ParquetFileWriter.Mode.CREATE, 1 << 20, 0, 64, Integer.MAX_VALUE, false);
        writer.start();
        writer.end(Map.of());
    }
}
