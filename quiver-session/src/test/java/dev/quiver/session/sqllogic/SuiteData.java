package dev.quiver.session.sqllogic;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.session.TestTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The data every {@code .slt} file can query, written once per test JVM as Parquet into a temporary
 * directory: the eight TPC-H tables at SF {@value #TPCH_SCALE} and the small tables of
 * {@link TestTables} ({@code t1}, {@code t2}, {@code empty_t}) and {@link EdgeTables}, each table in
 * {@value #FILES_PER_TABLE} files, and the nested columns of {@link NestedTables}, which DuckDB
 * writes. Quiver opens the files as tables; DuckDB loads the same files.
 */
final class SuiteData implements AutoCloseable {
    static final double TPCH_SCALE = 0.01;
    static final int FILES_PER_TABLE = 3;

    private final Path directory;
    private final List<TableSource> tables;

    private SuiteData(Path directory, List<TableSource> tables) {
        this.directory = directory;
        this.tables = List.copyOf(tables);
    }

    static SuiteData create() {
        Path directory;
        try {
            directory = Files.createTempDirectory("quiver-slt-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (TpchCatalog tpch = new TpchCatalog(TPCH_SCALE)) {
            List<TableSource> tables = new ArrayList<>(ParquetCatalogWriter.write(tpch, directory, FILES_PER_TABLE));
            tables.addAll(ParquetCatalogWriter.write(EdgeTables.addTo(TestTables.catalog()), directory, FILES_PER_TABLE));
            tables.add(NestedTables.write(directory));
            return new SuiteData(directory, tables);
        } catch (RuntimeException e) {
            delete(directory);
            throw e;
        }
    }

    /** A catalog of the tables, for a session's builder. */
    Catalog catalog() {
        return new TableListCatalog(tables);
    }

    /** A new DuckDB database holding the same tables. */
    DuckDbDatabase duckDb() {
        try {
            return DuckDbDatabase.load(directory, tables.stream().map(TableSource::name).toList());
        } catch (SQLException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "Loading the test tables into DuckDB failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        delete(directory);
    }

    private static void delete(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("deleting " + directory, e);
        }
    }
}
