package dev.quiver.engine.source.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.testing.TestingContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TpchDatasetWriterTest {
    @TempDir
    Path directory;

    private final TestingContext testing = new TestingContext();
    private final TpchCatalog tpch = new TpchCatalog(0.01);

    @AfterEach
    void close() {
        testing.close();
    }

    private List<TpchDatasetWriter.WrittenTable> write(FileFormat format, int filesPerTable) {
        try (QuiverExecutor executor = new QuiverExecutor("writer-test")) {
            return TpchDatasetWriter.write(0.01, format, directory, filesPerTable, 2, executor, testing.allocator());
        }
    }

    private TableSource open(String table, FileFormat format) {
        Optional<Schema> columns = format == FileFormat.CSV
                ? Optional.of(tpch.table(table).orElseThrow().schema()) : Optional.empty();
        return FileTables.open(table, directory.resolve(table), Optional.empty(), columns);
    }

    @ParameterizedTest
    @EnumSource(FileFormat.class)
    void writesEveryTableWithTheGeneratorsRows(FileFormat format) {
        List<TpchDatasetWriter.WrittenTable> tables = write(format, 3);
        assertThat(tables).extracting(TpchDatasetWriter.WrittenTable::table).containsExactlyElementsOf(tpch.tableNames());
        for (TpchDatasetWriter.WrittenTable written : tables) {
            long expected = tpch.table(written.table()).orElseThrow().statistics().rowCount().value();
            assertThat(written.rows()).as(written.table()).isEqualTo(expected);
            assertThat(written.bytes()).isPositive();
            assertThat(written.files()).allSatisfy(file -> assertThat(file.path()).exists());
        }
        assertThat(tables.stream().filter(t -> t.table().equals("lineitem")).findFirst().orElseThrow().files()).hasSize(3);
        for (String table : List.of("nation", "orders", "partsupp")) {
            TableSource source = open(table, format);
            assertThat(source.schema().getFields()).as(table).isEqualTo(tpch.table(table).orElseThrow().schema().getFields());
            List<List<Object>> rows = testing.rows(source.scan(ScanRequest.all(2)));
            List<List<Object>> expected = testing.rows(tpch.table(table).orElseThrow().scan(ScanRequest.all(1)));
            assertThat(rows).as(table).containsExactlyInAnyOrderElementsOf(expected);
        }
        TableSource lineitem = open("lineitem", format);
        assertThat(testing.rows(lineitem.scan(new ScanRequest(Optional.of(List.of()), List.of(), 2)))).hasSize(60_175);
    }

    /** The optimizer's inputs: the TPC-H primary keys (declared by the writer) and distinct counts of low-cardinality columns. */
    @ParameterizedTest
    @EnumSource(FileFormat.class)
    void tablesCarryTheirPrimaryKeysAndDistinctEstimates(FileFormat format) {
        write(format, 3);
        for (String table : tpch.tableNames()) {
            assertThat(open(table, format).uniqueKeys()).as(table).isEqualTo(tpch.table(table).orElseThrow().uniqueKeys());
        }
        assertThat(open("lineitem", format).uniqueKeys()).containsExactly(List.of(0, 3));
        TableSource customer = open("customer", format);
        int nationKey = customer.schema().getFields().indexOf(customer.schema().findField("c_nationkey"));
        assertThat(customer.statistics().columns().get(nationKey).distinctCount()).isEqualTo(Estimate.inexact(25));
        // l_orderkey: 15 000 orders, sorted within each of the 3 files, one sample part per file
        Estimate orderKeys = open("lineitem", format).statistics().columns().get(0).distinctCount();
        assertThat(orderKeys.isExact()).isFalse();
        assertThat(orderKeys.value()).isBetween(12_000L, 18_000L);
    }

    @Test
    void aKeyOnAMissingColumnNamesThePropertiesFile() throws IOException {
        write(FileFormat.PARQUET, 1);
        Path properties = directory.resolve("nation").resolve(TableProperties.FILE_NAME);
        Files.writeString(properties, "unique_keys=n_nationkey;n_name,n_planet\n");
        assertThatThrownBy(() -> open("nation", FileFormat.PARQUET)).isInstanceOf(QuiverException.class)
                .hasMessageContaining(properties.toString()).hasMessageContaining("'n_planet'");
        Files.writeString(properties, "unique_keys=N_NAME ; n_nationkey, n_regionkey\n");
        assertThat(open("nation", FileFormat.PARQUET).uniqueKeys()).containsExactly(List.of(1), List.of(0, 2));
    }

    @Test
    void aSecondRunReplacesTheFirstsFiles() throws IOException {
        write(FileFormat.ARROW, 4);
        write(FileFormat.ARROW, 1);
        try (Stream<Path> files = Files.list(directory.resolve("lineitem"))) {
            assertThat(files.map(path -> path.getFileName().toString()).toList())
                    .containsExactlyInAnyOrder("lineitem.arrow", TableProperties.FILE_NAME);
        }
        assertThat(FileFormat.detect(directory.resolve("lineitem"))).isEqualTo(FileFormat.ARROW);
    }

    @Test
    void detectsFormatsAndRejectsUnknownOnes() throws IOException {
        assertThat(FileFormat.fromName("Parquet")).isEqualTo(FileFormat.PARQUET);
        assertThat(FileFormat.fromName("feather")).isEqualTo(FileFormat.ARROW);
        assertThatThrownBy(() -> FileFormat.fromName("orc")).isInstanceOf(QuiverException.class).hasMessageContaining("'orc'");
        Path text = Files.writeString(directory.resolve("data.txt"), "x");
        assertThatThrownBy(() -> FileFormat.detect(text)).isInstanceOf(QuiverException.class).hasMessageContaining(text.toString());
        assertThat(FileFormat.detect(Files.writeString(directory.resolve("d.csv"), "x"))).isEqualTo(FileFormat.CSV);
    }
}
