package dev.quiver.session.sqllogic;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.source.files.FileFormat;
import dev.quiver.engine.source.files.FileTables;
import dev.quiver.engine.source.parquet.ParquetFiles;
import dev.quiver.engine.source.parquet.ParquetWriteOptions;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Writes every table of a catalog as Parquet, {@code DIR/<table>/part-<i>.parquet}, one file per
 * partition of a scan of {@code files} partitions (so that distributed scans get several splits),
 * and opens them back as file tables. The same files are what DuckDB loads ({@link DuckDbDatabase}),
 * so both engines read identical data.
 */
final class ParquetCatalogWriter {
    private ParquetCatalogWriter() {}

    /** Writes the tables and returns them opened from the files, in the catalog's name order. */
    static List<TableSource> write(Catalog catalog, Path directory, int files) {
        List<TableSource> written = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
                QuiverExecutor executor = new QuiverExecutor("parquet-writer");
                TaskContext context = new TaskContext("parquet-writer", allocator, MemoryPool.unlimited(), executor,
                        new ExecutionConfig(ExecutionConfig.DEFAULT_BATCH_SIZE, files))) {
            for (String name : catalog.tableNames()) {
                TableSource table = catalog.table(name).orElseThrow();
                Path tableDirectory = directory.resolve(table.name());
                Files.createDirectories(tableDirectory);
                ExecutionPlan scan = table.scan(ScanRequest.all(files));
                for (int p = 0; p < scan.outputPartitioning().partitionCount(); p++) {
                    ParquetFiles.write(scan.execute(p, context), tableDirectory.resolve("part-" + p + ".parquet"), ParquetWriteOptions.defaults());
                }
                written.add(FileTables.open(table.name(), tableDirectory, Optional.of(FileFormat.PARQUET), Optional.empty()));
            }
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "Writing the test tables to " + directory + " failed: " + e.getMessage(), e);
        }
        return written;
    }
}
