package dev.quiver.engine.source.files;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.source.arrow.ArrowBatchWriter;
import dev.quiver.engine.source.csv.CsvBatchWriter;
import dev.quiver.engine.source.parquet.ParquetFiles;
import dev.quiver.engine.source.parquet.ParquetWriteOptions;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes the eight TPC-H tables at a scale factor as files: {@code DIR/<table>/part-<i>.<ext>},
 * one file per generator part ({@code DIR/<table>/<table>.<ext>} when a table has one part); data
 * files an earlier run left in those directories are removed first. Files are written concurrently by {@code parallelism} tasks on a
 * {@link QuiverExecutor}, the largest tables first. Each file's record batches (Arrow) or row
 * groups (Parquet, {@link ParquetWriteOptions#defaults()}) hold {@value #BATCH_ROWS} rows. Each
 * table directory also gets a {@link TableProperties} file declaring the table's TPC-H primary key,
 * which every file format's table reads back.
 */
public final class TpchDatasetWriter {
    /** Rows per generated batch: one Arrow record batch, a scan split of the written files. */
    public static final int BATCH_ROWS = 65_536;

    /** One file written. */
    public record WrittenFile(String table, Path path, long rows, long bytes) {}

    /** One table written: its directory, files, rows, bytes and the seconds its files took (summed). */
    public record WrittenTable(String table, Path directory, List<WrittenFile> files, long rows, long bytes, double seconds) {}

    private TpchDatasetWriter() {}

    /**
     * Writes the dataset and returns the tables in name order.
     *
     * @param filesPerTable files per table (at most; tiny tables such as nation get one)
     * @param allocator the parent of the allocator every file's generation uses
     */
    public static List<WrittenTable> write(double scaleFactor, FileFormat format, Path directory, int filesPerTable, int parallelism,
            QuiverExecutor executor, BufferAllocator allocator) {
        requireNonNull(format, "format is null");
        requireNonNull(directory, "directory is null");
        if (filesPerTable < 1 || parallelism < 1) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT,
                    "files per table and parallelism must be at least 1: " + filesPerTable + ", " + parallelism);
        }
        TpchCatalog catalog = new TpchCatalog(scaleFactor);
        List<FileTask> tasks = new ArrayList<>();
        for (String name : catalog.tableNames()) {
            TableSource table = catalog.table(name).orElseThrow();
            ExecutionPlan scan = table.scan(ScanRequest.all(filesPerTable));
            int parts = scan.outputPartitioning().partitionCount();
            Path tableDirectory = directory.resolve(name);
            prepareDirectory(tableDirectory);
            if (!table.uniqueKeys().isEmpty()) {
                TableProperties.writeUniqueKeys(tableDirectory, table.schema(), table.uniqueKeys());
            }
            for (int part = 0; part < parts; part++) {
                String fileName = parts == 1 ? name + format.extension() : String.format("part-%05d%s", part, format.extension());
                tasks.add(new FileTask(name, scan, part, tableDirectory.resolve(fileName),
                        table.statistics().rowCount().value() / parts));
            }
        }
        tasks.sort(Comparator.comparingLong(FileTask::expectedRows).reversed());
        List<TimedFile> written = run(tasks, format, parallelism, executor, allocator);
        Map<String, List<TimedFile>> byTable = new TreeMap<>();
        written.forEach(file -> byTable.computeIfAbsent(file.file().table(), t -> new ArrayList<>()).add(file));
        List<WrittenTable> tables = new ArrayList<>();
        byTable.forEach((name, files) -> {
            List<WrittenFile> sorted = files.stream().map(TimedFile::file).sorted(Comparator.comparing(WrittenFile::path)).toList();
            tables.add(new WrittenTable(name, directory.resolve(name), sorted, sorted.stream().mapToLong(WrittenFile::rows).sum(),
                    sorted.stream().mapToLong(WrittenFile::bytes).sum(), files.stream().mapToDouble(TimedFile::seconds).sum()));
        });
        return tables;
    }

    private record FileTask(String table, ExecutionPlan scan, int partition, Path path, long expectedRows) {}

    private record TimedFile(WrittenFile file, double seconds) {}

    private static List<TimedFile> run(List<FileTask> tasks, FileFormat format, int parallelism, QuiverExecutor executor,
            BufferAllocator allocator) {
        Queue<FileTask> queue = new ConcurrentLinkedQueue<>(tasks);
        Queue<TimedFile> written = new ConcurrentLinkedQueue<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        int workers = Math.min(parallelism, tasks.size());
        CountDownLatch done = new CountDownLatch(workers);
        for (int w = 0; w < workers; w++) {
            executor.execute("tpch-gen-" + w, () -> {
                try {
                    FileTask task;
                    while (failure.get() == null && (task = queue.poll()) != null) {
                        written.add(writeFile(task, format, executor, allocator));
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            });
        }
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure.compareAndSet(null, e);
        }
        Throwable error = failure.get();
        if (error instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (error != null) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "writing the TPC-H dataset failed: " + error, error);
        }
        return new ArrayList<>(written);
    }

    private static TimedFile writeFile(FileTask task, FileFormat format, QuiverExecutor executor, BufferAllocator parent) {
        long start = System.nanoTime();
        String name = task.table() + "-" + task.partition();
        try (BufferAllocator allocator = parent.newChildAllocator(name, 0, Long.MAX_VALUE);
                TaskContext context = new TaskContext("tpch-gen-" + name, allocator, new MemoryPool(Long.MAX_VALUE), executor,
                        new ExecutionConfig(BATCH_ROWS, 1));
                BatchStream stream = task.scan().execute(task.partition(), context)) {
            long rows = switch (format) {
                case PARQUET -> ParquetFiles.write(stream, task.path(), ParquetWriteOptions.defaults()).rowCount();
                case ARROW -> writeArrow(stream, task.path(), allocator);
                case CSV -> writeCsv(stream, task.path());
            };
            WrittenFile file = new WrittenFile(task.table(), task.path(), rows, DataFiles.size(task.path()));
            return new TimedFile(file, (System.nanoTime() - start) / 1e9);
        }
    }

    private static long writeArrow(BatchStream stream, Path path, BufferAllocator allocator) {
        try (ArrowBatchWriter writer = ArrowBatchWriter.create(path, stream.schema(), allocator)) {
            for (VectorSchemaRoot batch = stream.next(); batch != null; batch = stream.next()) {
                try (VectorSchemaRoot owned = batch) {
                    writer.write(owned);
                }
            }
            return writer.rowCount();
        }
    }

    private static long writeCsv(BatchStream stream, Path path) {
        try (CsvBatchWriter writer = CsvBatchWriter.create(path, stream.schema())) {
            for (VectorSchemaRoot batch = stream.next(); batch != null; batch = stream.next()) {
                try (VectorSchemaRoot owned = batch) {
                    writer.write(owned);
                }
            }
            return writer.rowCount();
        }
    }

    /** Creates the table's directory, removing data files an earlier run left (their part count may differ). */
    private static void prepareDirectory(Path directory) {
        try {
            Files.createDirectories(directory);
            try (Stream<Path> entries = Files.list(directory)) {
                for (Path file : entries.filter(Files::isRegularFile).toList()) {
                    String extension = DataFiles.extension(file.getFileName().toString());
                    if (Arrays.stream(FileFormat.values()).anyMatch(format -> format.extensions().contains(extension))) {
                        Files.delete(file);
                    }
                }
            }
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot create directory " + directory + ": " + e.getMessage(), e);
        }
    }
}
