package dev.quiver.session.sqllogic;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.FileFormat;
import dev.quiver.engine.source.files.FileTables;
import dev.quiver.engine.spi.TableSource;
import io.trino.tpcds.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * TPC-DS at SF {@value #SCALE} as Parquet under {@code quiver-session/target/tpcds-sf0.01}: generated
 * once ({@link TpcdsGenerator}, about a minute on two cores) and reused while the marker file says
 * it was generated the same way; {@code mvn clean} removes it.
 */
final class TpcdsData {
    static final double SCALE = 0.01;
    private static final String MARKER = "_generated";
    private static final String MARKER_TEXT = "io.trino.tpcds:tpcds:1.4 scale " + SCALE + " chunks " + TpcdsGenerator.CHUNKS + " v1";

    private final Path directory;

    private TpcdsData(Path directory) {
        this.directory = directory;
    }

    /** The data, generated first if the directory does not hold a complete copy. */
    static TpcdsData prepare() {
        Path directory = Path.of(System.getProperty("basedir", System.getProperty("user.dir")), "target", "tpcds-sf0.01");
        Path marker = directory.resolve(MARKER);
        try {
            if (!Files.isRegularFile(marker) || !Files.readString(marker, StandardCharsets.UTF_8).equals(MARKER_TEXT)) {
                deleteRecursively(directory);
                Files.createDirectories(directory);
                TpcdsGenerator.write(SCALE, directory, 2);
                Files.writeString(marker, MARKER_TEXT, StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("preparing TPC-DS data in " + directory, e);
        }
        return new TpcdsData(directory);
    }

    List<String> tableNames() {
        return TpcdsGenerator.tables().stream().map(Table::getName).toList();
    }

    List<TableSource> tables() {
        return tableNames().stream()
                .map(name -> FileTables.open(name, directory.resolve(name), Optional.of(FileFormat.PARQUET), Optional.empty()))
                .toList();
    }

    DuckDbDatabase duckDb() {
        try {
            return DuckDbDatabase.load(directory, tableNames());
        } catch (SQLException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "Loading TPC-DS into DuckDB failed: " + e.getMessage(), e);
        }
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
