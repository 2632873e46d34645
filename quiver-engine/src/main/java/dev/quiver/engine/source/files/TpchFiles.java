package dev.quiver.engine.source.files;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.spi.TableSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Opens the eight TPC-H tables from a directory such as {@link TpchDatasetWriter} writes: each
 * table from {@code DIR/<table>/} or else {@code DIR/<table>.<ext>}, in whatever format its files
 * have. CSV tables get the TPC-H columns, so every format reads the same types.
 */
public final class TpchFiles {
    private TpchFiles() {}

    public static List<TableSource> open(Path directory) {
        if (!Files.isDirectory(directory)) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "TPC-H directory " + directory + " does not exist or is not a directory");
        }
        TpchCatalog tpch = new TpchCatalog(1);
        List<TableSource> tables = new ArrayList<>();
        for (String name : tpch.tableNames()) {
            Path path = locate(directory, name);
            FileFormat format = FileFormat.detect(path);
            Optional<Schema> columns = format == FileFormat.CSV
                    ? Optional.of(tpch.table(name).orElseThrow().schema()) : Optional.empty();
            tables.add(FileTables.open(name, path, Optional.of(format), columns));
        }
        return tables;
    }

    private static Path locate(Path directory, String table) {
        Path tableDirectory = directory.resolve(table);
        if (Files.isDirectory(tableDirectory)) {
            return tableDirectory;
        }
        return Arrays.stream(FileFormat.values())
                .flatMap(format -> format.extensions().stream().sorted())
                .map(extension -> directory.resolve(table + extension))
                .filter(Files::isRegularFile)
                .findFirst()
                .orElseThrow(() -> new QuiverException(ErrorCode.SOURCE_ERROR, "TPC-H directory " + directory + " has no table " + table
                        + ": expected " + tableDirectory + "/ or " + table + ".parquet, .arrow or .csv (write one with quiver tpch-gen)"));
    }
}
