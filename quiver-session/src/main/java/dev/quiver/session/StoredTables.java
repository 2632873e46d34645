package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.StagedOutput;
import dev.quiver.engine.source.parquet.ParquetBatchWriter;
import dev.quiver.engine.source.parquet.ParquetWriteOptions;
import dev.quiver.engine.spi.TableSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The {@link StoredTable}s of a catalog directory: {@code CREATE TABLE} writes a new directory
 * under {@code tables/} (staged, then renamed into place), each {@code INSERT} one more Parquet
 * file in it (staged, then renamed: the rename is the insert's commit), {@code DROP TABLE}
 * deletes it once the catalog no longer lists it. Opening the directory deletes what a crashed
 * process left: table directories the catalog does not list and staging files.
 */
final class StoredTables {
    private final CatalogDirectory catalog;

    StoredTables(CatalogDirectory catalog) {
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    /** The stored tables the catalog lists; one whose files cannot be opened is an {@link UnavailableTable}. */
    List<TableSource> load() {
        removeLeftovers();
        List<TableSource> tables = new ArrayList<>();
        for (CatalogDirectory.TableEntry entry : catalog.tables()) {
            try {
                tables.add(StoredTable.open(entry.name(), entry.directory(), catalog.tablesDirectory().resolve(entry.directory())));
            } catch (QuiverException e) {
                tables.add(new UnavailableTable(entry.name(), entry.columns(), e.getMessage()));
            }
        }
        return tables;
    }

    /**
     * A new table: its commit moves the written directory into place and hands the opened table
     * to {@code publish} (which registers it and records it in the catalog, or throws, in which case
     * the directory is deleted again).
     */
    WriteSink create(String name, Schema schema, Consumer<StoredTable> publish) {
        String directoryName = directoryName(name);
        Path target = catalog.tablesDirectory().resolve(directoryName);
        StagedOutput output = StagedOutput.directory(target, StagedOutput.Overwrite.REFUSE);
        ParquetBatchWriter writer;
        try {
            writer = ParquetBatchWriter.create(output.path().resolve(partName()), schema, ParquetWriteOptions.defaults());
        } catch (RuntimeException e) {
            output.abort();
            throw e;
        }
        return new StagedWriteSink(writer, output, batch -> NotNullColumns.check(name, schema, batch), () -> {
            output.commit();
            StoredTable table = StoredTable.open(name, directoryName, target);
            try {
                publish.accept(table);
            } catch (RuntimeException e) {
                delete(table);
                throw e;
            }
        });
    }

    /**
     * One more file of {@code table}: {@code publish} gets a step that renames the file into place
     * and opens the table again, to run it where it checks the table is still the one written to.
     */
    WriteSink append(StoredTable table, Consumer<Supplier<StoredTable>> publish) {
        StagedOutput output = StagedOutput.file(table.directory().resolve(partName()));
        ParquetBatchWriter writer;
        try {
            writer = ParquetBatchWriter.create(output.path(), table.schema(), ParquetWriteOptions.defaults());
        } catch (RuntimeException e) {
            output.abort();
            throw e;
        }
        return new StagedWriteSink(writer, output, batch -> NotNullColumns.check(table.name(), table.schema(), batch), () -> publish.accept(() -> {
            output.commit();
            return table.reopen();
        }));
    }

    /** Deletes a table's files (after the catalog stopped listing it). */
    void delete(StoredTable table) {
        try {
            StagedOutput.deleteTree(table.directory());
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot delete the files of table " + table.name() + " in " + table.directory()
                    + ": " + e.getMessage(), e);
        }
    }

    /** Table directories the catalog does not list, and staging files and directories, of a process that stopped mid-write. */
    private void removeLeftovers() {
        Set<String> listed = new HashSet<>();
        catalog.tables().forEach(entry -> listed.add(entry.directory()));
        try (Stream<Path> entries = Files.list(catalog.tablesDirectory())) {
            for (Path entry : entries.toList()) {
                if (!listed.contains(entry.getFileName().toString())) {
                    StagedOutput.deleteTree(entry);
                } else if (Files.isDirectory(entry)) {
                    removeStaging(entry);
                }
            }
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "Catalog directory " + catalog.path() + " cannot be cleaned up: " + e.getMessage(), e);
        }
    }

    private static void removeStaging(Path tableDirectory) throws IOException {
        try (Stream<Path> files = Files.list(tableDirectory)) {
            for (Path file : files.toList()) {
                if (file.getFileName().toString().startsWith(".")) {
                    StagedOutput.deleteTree(file);
                }
            }
        }
    }

    /** A new directory name for table {@code name}: readable, unique, safe in any file system. */
    private static String directoryName(String name) {
        String readable = name.replaceAll("[^A-Za-z0-9_-]", "_");
        return readable.substring(0, Math.min(readable.length(), 64)) + "-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    }

    /** Part files sort by the time they were written, so a table reads its inserts in order. */
    private static String partName() {
        return String.format("part-%013d-%s.parquet", System.currentTimeMillis(), HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()));
    }
}
