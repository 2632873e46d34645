package dev.quiver.engine.source.files;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.arrow.ArrowTable;
import dev.quiver.engine.source.csv.CsvOptions;
import dev.quiver.engine.source.csv.CsvTable;
import dev.quiver.engine.source.parquet.ParquetTable;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.types.QuiverTypes;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Opens file tables of any {@link FileFormat}: what {@code CREATE EXTERNAL TABLE} and {@code --table} do. */
public final class FileTables {
    private FileTables() {}

    /**
     * Opens the table at {@code path}.
     *
     * @param format the format, or empty to detect it from the extension
     * @param columns the columns, or empty to take them from the files (Parquet, Arrow) or to
     *     infer them (CSV); for Parquet and Arrow, given columns must match the files'
     */
    public static TableSource open(String name, Path path, Optional<FileFormat> format, Optional<Schema> columns) {
        requireNonNull(path, "path is null");
        return open(Storages.LOCAL, name, List.of(path.toString()), format, columns, FileOptions.NONE);
    }

    /**
     * Opens the table made of the files of {@code locations} (files, directories, globs; see
     * {@link FileListing}), as {@code read_parquet}, {@code read_csv} and
     * {@code CREATE EXTERNAL TABLE ... OPTIONS (...)} do.
     *
     * @param storages where the locations are (local paths, {@code s3://} URIs)
     * @param format the format, or empty to detect it from the extension ({@link FileFormat#detect(Storages, List)})
     * @param options the format's options ({@link MultiFileOptions} for every format, the CSV
     *     options for CSV); an option the format does not know is INVALID_ARGUMENT
     */
    public static TableSource open(Storages storages, String name, List<String> locations, Optional<FileFormat> format, Optional<Schema> columns,
            FileOptions options) {
        requireNonNull(storages, "storages is null");
        requireNonNull(name, "name is null");
        requireNonNull(locations, "locations is null");
        requireNonNull(options, "options is null");
        FileFormat actual = format.orElseGet(() -> FileFormat.detect(storages, locations));
        String where = actual.name().toLowerCase(java.util.Locale.ROOT) + " files";
        TableSource table = switch (actual) {
            case PARQUET -> {
                MultiFileOptions multi = MultiFileOptions.from(options);
                options.checkAllRead(where);
                yield ParquetTable.open(storages, name, locations, multi);
            }
            case ARROW -> {
                options.checkAllRead(where);
                Location location = Location.of(single(locations, actual));
                if (!location.isLocal()) {
                    throw new QuiverException(ErrorCode.NOT_SUPPORTED, "Arrow IPC tables are read from local files, not " + location
                            + "; store the table as Parquet or CSV");
                }
                yield ArrowTable.open(name, location.path());
            }
            case CSV -> {
                CsvOptions csv = CsvOptions.from(options);
                options.checkAllRead(where);
                yield CsvTable.open(storages, name, locations, columns, csv);
            }
        };
        if (actual != FileFormat.CSV && columns.isPresent()) {
            checkColumns(table, columns.get(), String.join(", ", locations));
        }
        return table;
    }

    private static String single(List<String> locations, FileFormat format) {
        if (locations.size() != 1 || FileListing.isPattern(locations.get(0))) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, format + " tables are read from one file or directory, not "
                    + String.join(", ", locations));
        }
        return locations.get(0);
    }

    private static void checkColumns(TableSource table, Schema declared, String path) {
        List<Field> actual = table.schema().getFields();
        List<Field> expected = declared.getFields();
        boolean same = actual.size() == expected.size();
        for (int i = 0; same && i < actual.size(); i++) {
            same = actual.get(i).getName().equalsIgnoreCase(expected.get(i).getName())
                    && actual.get(i).getType().equals(expected.get(i).getType());
        }
        if (!same) {
            throw new QuiverException(ErrorCode.TYPE_MISMATCH, "the columns declared for " + path + " (" + describe(expected)
                    + ") differ from the files' columns (" + describe(actual) + "); leave the column list out to take the files'");
        }
    }

    private static String describe(List<Field> fields) {
        return String.join(", ", fields.stream().map(f -> f.getName() + " " + QuiverTypes.sqlName(f.getType())).toList());
    }
}
