package dev.quiver.bench;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.source.files.FileFormat;
import dev.quiver.engine.source.files.FileOptions;
import dev.quiver.engine.source.files.FileTables;
import dev.quiver.engine.source.files.TpchDatasetWriter;
import dev.quiver.engine.source.files.TpchFiles;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storage;
import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.TableSource;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * A TPC-H dataset as files for the benchmark: written once by {@link TpchDatasetWriter} (as
 * {@code quiver tpch-gen} does) and reused while its directory holds a complete dataset of the same
 * scale factor and format, which a marker file written last records.
 *
 * @param directory the dataset's directory ({@code DIR/<table>/*.<ext>})
 * @param format the files' format
 * @param written whether this run wrote the files (false: reused)
 * @param seconds how long writing took (0 when reused)
 */
public record TpchFileData(Path directory, FileFormat format, boolean written, double seconds) {
    static final String MARKER = "_quiver_tpch_complete";
    static final int LAYOUT_VERSION = 2;

    public TpchFileData {
        requireNonNull(directory, "directory is null");
        requireNonNull(format, "format is null");
    }

    /** Reuses the dataset in {@code directory} if complete, else writes it with {@code filesPerTable} files per table. */
    public static TpchFileData prepare(double scaleFactor, FileFormat format, Path directory, int filesPerTable) {
        Path marker = directory.resolve(MARKER);
        // the layout version changes when the writer starts writing something earlier datasets lack (2: table properties)
        String expected = "sf=" + scaleFactor + " format=" + format.name().toLowerCase(Locale.ROOT) + " layout=" + LAYOUT_VERSION + "\n";
        try {
            if (Files.isRegularFile(marker) && Files.readString(marker, StandardCharsets.UTF_8).equals(expected)) {
                return new TpchFileData(directory, format, false, 0);
            }
            Files.createDirectories(directory);
            Files.deleteIfExists(marker);
            long start = System.nanoTime();
            int threads = Runtime.getRuntime().availableProcessors();
            try (BufferAllocator allocator = new RootAllocator(); QuiverExecutor executor = new QuiverExecutor("bench-tpch-gen")) {
                TpchDatasetWriter.write(scaleFactor, format, directory, filesPerTable, threads, executor, allocator);
            }
            Files.writeString(marker, expected, StandardCharsets.UTF_8);
            return new TpchFileData(directory, format, true, (System.nanoTime() - start) / 1e9);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot write the TPC-H dataset to " + directory + ": " + e.getMessage(), e);
        }
    }

    /** The eight tables read from the files, as {@code --tpch-dir} opens them. */
    public Catalog catalog() {
        Map<String, TableSource> tables = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (TableSource table : TpchFiles.open(directory)) {
            tables.put(table.name(), table);
        }
        return catalogOf(tables);
    }

    private static Catalog catalogOf(Map<String, TableSource> tables) {
        return new Catalog() {
            @Override
            public Optional<TableSource> table(String name) {
                return Optional.ofNullable(tables.get(name));
            }

            @Override
            public Set<String> tableNames() {
                return Set.copyOf(tables.keySet());
            }
        };
    }

    /**
     * The dataset uploaded below {@code prefix} ({@code s3://bucket/prefix/<table>/...}) unless the
     * marker object there says it already is; returns the bytes of the data files.
     */
    public long upload(Storages storages, String prefix) {
        Location root = new Location(prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix);
        Storage storage = storages.of(root);
        Location marker = root.resolve(MARKER);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(directory)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
            long bytes = 0;
            for (Path file : files) {
                bytes += file.getFileName().toString().endsWith(format.extension()) ? Files.size(file) : 0;
            }
            if (storage.stat(marker).isPresent()) {
                return bytes;
            }
            for (Path file : files) {
                if (!file.getFileName().toString().equals(MARKER)) {
                    try (OutputStream out = storage.create(root.resolve(directory.relativize(file).toString()))) {
                        Files.copy(file, out);
                    }
                }
            }
            try (OutputStream out = storage.create(marker)) {
                Files.copy(directory.resolve(MARKER), out);
            }
            return bytes;
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot upload the TPC-H dataset to " + prefix + ": " + e.getMessage(), e);
        }
    }

    /** The eight tables read from the Parquet files below {@code prefix} (as {@link #upload} wrote them). */
    public static Catalog catalog(Storages storages, String prefix) {
        String root = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        Map<String, TableSource> tables = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String table : List.of("customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier")) {
            tables.put(table, FileTables.open(storages, table, List.of(root + "/" + table), Optional.of(FileFormat.PARQUET), Optional.empty(),
                    FileOptions.NONE));
        }
        return catalogOf(tables);
    }

    /** DuckDB views over the same Parquet files: {@code read_parquet('DIR/<table>/*.parquet')}. */
    public DuckDbTpch duckdbViews(int threads) {
        if (format != FileFormat.PARQUET) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "DuckDB reads " + format + " files only through an extension; load it instead");
        }
        DuckDbTpch duckdb = DuckDbTpch.empty(threads);
        try {
            for (String table : List.of("customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier")) {
                String glob = directory.toAbsolutePath().resolve(table).resolve("*" + format.extension()).toString().replace("'", "''");
                duckdb.execute("CREATE VIEW " + table + " AS SELECT * FROM read_parquet('" + glob + "')");
            }
        } catch (RuntimeException e) {
            duckdb.close();
            throw e;
        }
        return duckdb;
    }
}
