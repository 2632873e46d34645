package dev.quiver.distributed.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.codec.PlanCodec;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.operator.ValuesExec;
import dev.quiver.engine.source.arrow.ArrowBatchWriter;
import dev.quiver.engine.source.csv.CsvBatchWriter;
import dev.quiver.engine.source.files.FileFormat;
import dev.quiver.engine.source.files.FileTables;
import dev.quiver.engine.source.parquet.ParquetBatchWriter;
import dev.quiver.engine.source.parquet.ParquetWriteOptions;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchScanExec;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.Statistics;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every built-in source's per-task variants read disjoint shares whose union is the whole leaf,
 * with the partition count asked for, and survive a trip through the plan codec.
 */
class LeafScalingTest {
    private static final Schema SCHEMA = new Schema(List.of(QuiverTypes.field("id", QuiverTypes.INT64, false),
            QuiverTypes.field("name", QuiverTypes.UTF8, true)));
    private static final int FILES = 3;
    private static final int ROWS_PER_FILE = 1000;

    @TempDir
    Path directory;

    private final TestingContext testing = new TestingContext();
    private final PlanCodec codec = PlanCodec.create();
    private final TaskEstimators estimators = TaskEstimators.builtin();

    @AfterEach
    void close() {
        testing.close();
    }

    @ParameterizedTest
    @EnumSource(FileFormat.class)
    void fileScanTasksTogetherReadEveryRowOnce(FileFormat format) throws Exception {
        ExecutionPlan scan = writeTable(format).scan(ScanRequest.all(2));
        assertSplitsExactly(scan, 3, 2);
        assertSplitsExactly(scan, 1, 2);
        assertSplitsExactly(scan, 7, 3);
    }

    @Test
    void tpchScanTasksGenerateDisjointParts() {
        TpchCatalog catalog = new TpchCatalog(0.01);
        assertSplitsExactly(catalog.table("orders").orElseThrow().scan(ScanRequest.all(2)), 3, 2);
        // nation is generated in one part: task 0 has it, the other tasks nothing
        ExecutionPlan nation = catalog.table("nation").orElseThrow().scan(ScanRequest.all(4));
        List<ExecutionPlan> variants = assertSplitsExactly(nation, 3, 1);
        assertThat(testing.rows(variants.get(0))).hasSize(25);
        assertThat(((TpchScanExec) variants.get(1)).partitionStatistics(OptionalInt.empty()).rowCount().value()).isZero();
    }

    @Test
    void memoryAndValuesScansSplitTheirRows() {
        assertSplitsExactly(PlanBuilders.table(101, 3), 4, 3);
        List<List<Object>> rows = List.of(List.of(1L, "a"), List.of(2L, "b"));
        List<ExecutionPlan> values = assertSplitsExactly(new ValuesExec(SCHEMA, rows), 3, 1);
        assertThat(testing.rows(values.get(0))).hasSize(2);
    }

    @Test
    void aLeafWithoutAnEstimatorIsExactOne() {
        ExecutionPlan leaf = new StageInputExec(0, BoundaryKind.COALESCE, SCHEMA, List.of(),
                1, 1, 1, 1, Statistics.unknown(SCHEMA), Optional.empty());
        TaskCountHint hint = estimators.taskCount(leaf, PlanBuilders.fanOut(4, 2));
        assertThat(hint).isInstanceOf(TaskCountHint.Exact.class);
        assertThat(hint.taskCount()).isEqualTo(1);
        assertThat(hint.origin()).contains("StageInputExec has no TaskEstimator");
    }

    /** Scales {@code leaf} and checks the variants' rows against the leaf's; returns the variants. */
    private List<ExecutionPlan> assertSplitsExactly(ExecutionPlan leaf, int tasks, int partitionsPerTask) {
        List<ExecutionPlan> variants = estimators.scaleUpLeafNode(leaf, tasks, partitionsPerTask);
        assertThat(variants).hasSize(tasks);
        List<List<Object>> union = new ArrayList<>();
        for (ExecutionPlan variant : variants) {
            assertThat(variant.outputPartitioning().partitionCount()).isEqualTo(partitionsPerTask);
            ExecutionPlan decoded = codec.decode(codec.encode(variant));
            assertThat(decoded.displayLine()).isEqualTo(variant.displayLine());
            List<List<Object>> rows = testing.rows(variant);
            assertThat(testing.rows(decoded)).containsExactlyInAnyOrderElementsOf(rows);
            union.addAll(rows);
        }
        List<List<Object>> all = testing.rows(leaf);
        assertThat(all).isNotEmpty();
        assertThat(union).containsExactlyInAnyOrderElementsOf(all);
        if (tasks > 1 && all.size() > 100) {
            assertThat(testing.rows(variants.get(0))).as("task 0 reads a share, not everything").hasSizeLessThan(all.size());
        }
        return variants;
    }

    private TableSource writeTable(FileFormat format) throws Exception {
        Path table = Files.createDirectories(directory.resolve("t_" + format.name().toLowerCase()));
        for (int file = 0; file < FILES; file++) {
            Path path = table.resolve("part-" + file + "." + format.extension());
            List<List<Object>> rows = new ArrayList<>();
            for (int i = 0; i < ROWS_PER_FILE; i++) {
                long id = (long) file * ROWS_PER_FILE + i;
                rows.add(Arrays.asList(id, id % 5 == 0 ? null : "n" + id));
            }
            try (VectorSchemaRoot batch = Batches.fromRows(SCHEMA, rows.subList(0, 600), testing.allocator());
                    VectorSchemaRoot rest = Batches.fromRows(SCHEMA, rows.subList(600, rows.size()), testing.allocator())) {
                switch (format) {
                    case PARQUET -> {
                        try (ParquetBatchWriter writer = ParquetBatchWriter.create(path, SCHEMA, ParquetWriteOptions.defaults().withRowGroupRows(300))) {
                            writer.write(batch);
                            writer.write(rest);
                        }
                    }
                    case ARROW -> {
                        try (ArrowBatchWriter writer = ArrowBatchWriter.create(path, SCHEMA, testing.allocator())) {
                            writer.write(batch);
                            writer.write(rest);
                        }
                    }
                    case CSV -> {
                        try (CsvBatchWriter writer = CsvBatchWriter.create(path, SCHEMA)) {
                            writer.write(batch);
                            writer.write(rest);
                        }
                    }
                }
            }
        }
        return FileTables.open("t", table, Optional.of(format), format == FileFormat.CSV ? Optional.of(SCHEMA) : Optional.empty());
    }
}
