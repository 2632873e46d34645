package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.parquet.ParquetTable;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.Statistics;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table of a {@code --catalog} directory, made by {@code CREATE TABLE}: a directory of Parquet
 * files, one per {@code INSERT} (plus the first, which may be empty and holds the columns). Reads
 * as a Parquet table over the files there when it was opened; an insert opens it again.
 */
final class StoredTable implements TableSource {
    private final String directoryName;
    private final Path directory;
    private final TableSource files;

    private StoredTable(String directoryName, Path directory, TableSource files) {
        this.directoryName = requireNonNull(directoryName, "directoryName is null");
        this.directory = requireNonNull(directory, "directory is null");
        this.files = requireNonNull(files, "files is null");
    }

    /** Opens the table stored in {@code directory} (named {@code directoryName} under the catalog's tables). */
    static StoredTable open(String name, String directoryName, Path directory) {
        return new StoredTable(directoryName, directory, ParquetTable.open(name, directory));
    }

    /** The table with the files its directory holds now. */
    StoredTable reopen() {
        return open(name(), directoryName, directory);
    }

    /** The directory's name under the catalog's {@code tables/}. */
    String directoryName() {
        return directoryName;
    }

    Path directory() {
        return directory;
    }

    @Override
    public String name() {
        return files.name();
    }

    @Override
    public Schema schema() {
        return files.schema();
    }

    @Override
    public Statistics statistics() {
        return files.statistics();
    }

    @Override
    public List<List<Integer>> uniqueKeys() {
        return files.uniqueKeys();
    }

    @Override
    public boolean insertable() {
        return true;
    }

    @Override
    public ExecutionPlan scan(ScanRequest request) {
        return files.scan(request);
    }
}
