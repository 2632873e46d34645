package dev.quiver.session.sqllogic;

import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.source.parquet.ParquetBatchWriter;
import dev.quiver.engine.source.parquet.ParquetWriteOptions;
import dev.quiver.engine.types.QuiverTypes;
import io.trino.tpcds.Results;
import io.trino.tpcds.Session;
import io.trino.tpcds.Table;
import io.trino.tpcds.column.Column;
import io.trino.tpcds.column.ColumnType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Generates the 24 TPC-DS tables with {@code io.trino.tpcds} (the Java port of dsdgen) as Parquet
 * files, {@code DIR/<table>/part-<chunk>.parquet}: each large table in {@value #CHUNKS} chunks (the
 * generator's own splitting), written concurrently. Types as Trino's TPC-DS connector has them:
 * identifiers BIGINT, integers INTEGER, DECIMAL(p,s), DATE, and CHAR/VARCHAR (and the one TIME
 * column) as VARCHAR; every column nullable.
 */
final class TpcdsGenerator {
    static final int CHUNKS = 3;
    private static final int BATCH_ROWS = 65_536;

    private TpcdsGenerator() {}

    /** The tables generated: the base tables less {@code dbgen_version}, which no query reads. */
    static List<Table> tables() {
        return Table.getBaseTables().stream().filter(table -> table != Table.DBGEN_VERSION).toList();
    }

    static Schema schema(Table table) {
        List<Field> fields = new ArrayList<>();
        for (Column column : table.getColumns()) {
            fields.add(QuiverTypes.field(column.getName(), arrowType(column.getType()), true));
        }
        return new Schema(fields);
    }

    private static ArrowType arrowType(ColumnType type) {
        return switch (type.getBase()) {
            case IDENTIFIER -> QuiverTypes.INT64;
            case INTEGER -> QuiverTypes.INT32;
            case DATE -> QuiverTypes.DATE32;
            case DECIMAL -> QuiverTypes.decimal(type.getPrecision().orElseThrow(), type.getScale().orElseThrow());
            case CHAR, VARCHAR, TIME -> QuiverTypes.UTF8;
        };
    }

    /** Writes every table at {@code scale} under {@code directory}, on {@code threads} threads. */
    static void write(double scale, Path directory, int threads) {
        Session session = Session.getDefaultSession().withScale(scale).withNoSexism(false);
        List<Runnable> work = new ArrayList<>();
        for (Table table : tables()) {
            int chunks = table.isSmall() ? 1 : CHUNKS;
            for (int chunk = 1; chunk <= chunks; chunk++) {
                Session part = session.withTable(table).withParallelism(chunks).withChunkNumber(chunk);
                Path file = directory.resolve(table.getName()).resolve("part-" + chunk + ".parquet");
                work.add(() -> writeChunk(table, part, file));
            }
        }
        try (QuiverExecutor executor = new QuiverExecutor("tpcds-generator")) {
            List<CompletableFuture<Void>> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                CompletableFuture<Void> done = new CompletableFuture<>();
                executor.execute("tpcds-generator-" + t, () -> {
                    try {
                        for (int i = thread; i < work.size(); i += threads) {
                            work.get(i).run();
                        }
                        done.complete(null);
                    } catch (Throwable e) {
                        done.completeExceptionally(e);
                    }
                });
                running.add(done);
            }
            CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "Generating TPC-DS failed: " + e.getCause(), e.getCause());
        }
    }

    private static void writeChunk(Table table, Session session, Path file) {
        Schema schema = schema(table);
        List<Column> columns = List.of(table.getColumns());
        try (BufferAllocator allocator = new RootAllocator()) {
            Files.createDirectories(file.getParent());
            try (ParquetBatchWriter writer = ParquetBatchWriter.create(file, schema, ParquetWriteOptions.defaults());
                    VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
                batch.allocateNew();
                int rows = 0;
                for (List<List<String>> generated : Results.constructResults(table, session)) {
                    List<String> row = generated.get(0);
                    for (int c = 0; c < columns.size(); c++) {
                        VectorValues.set(batch.getVector(c), rows, value(columns.get(c).getType(), row.get(c)));
                    }
                    if (++rows == BATCH_ROWS) {
                        flush(writer, batch, rows);
                        rows = 0;
                    }
                }
                flush(writer, batch, rows);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + file, e);
        }
    }

    private static void flush(ParquetBatchWriter writer, VectorSchemaRoot batch, int rows) {
        if (rows == 0) {
            return;
        }
        batch.setRowCount(rows);
        writer.write(batch);
        batch.getFieldVectors().forEach(vector -> vector.reset());
    }

    private static Object value(ColumnType type, String text) {
        if (text == null) {
            return null;
        }
        return switch (type.getBase()) {
            case IDENTIFIER -> Long.parseLong(text);
            case INTEGER -> Integer.parseInt(text);
            case DATE -> (int) LocalDate.parse(text).toEpochDay();
            case DECIMAL -> new BigDecimal(text).setScale(type.getScale().orElseThrow());
            case CHAR, VARCHAR, TIME -> text;
        };
    }
}
