package dev.quiver.engine.source.parquet;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/** Writes any table (e.g. a TPC-H table) to a directory of Parquet files, for tests in any module. */
public final class ParquetTestData {
    private ParquetTestData() {}

    /** Writes {@code table} as about {@code files} files (one per scan partition) into {@code directory}. */
    public static void write(TableSource table, Path directory, int files, ParquetWriteOptions options) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ExecutionPlan scan = table.scan(ScanRequest.all(files));
        try (BufferAllocator allocator = new RootAllocator();
                QuiverExecutor executor = new QuiverExecutor("parquet-test-data");
                TaskContext context = new TaskContext("write", allocator, MemoryPool.unlimited(), executor,
                        new ExecutionConfig(ExecutionConfig.DEFAULT_BATCH_SIZE, files))) {
            for (int p = 0; p < scan.outputPartitioning().partitionCount(); p++) {
                ParquetFiles.write(scan.execute(p, context), directory.resolve(String.format("part-%03d.parquet", p)), options);
            }
        }
    }
}
