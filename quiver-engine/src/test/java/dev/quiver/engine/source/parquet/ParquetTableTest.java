package dev.quiver.engine.source.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.PlanExecutor;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.InListExpr;
import dev.quiver.engine.expr.IsNullExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Row-group splits, projection and pruning over a directory of three files with several row groups each. */
class ParquetTableTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("k", QuiverTypes.INT64, false),
            QuiverTypes.field("grp", QuiverTypes.INT32, true),
            QuiverTypes.field("name", QuiverTypes.UTF8, true)));
    private static final ColumnExpr K = new ColumnExpr(0, "k", QuiverTypes.INT64, false);
    private static final int FILES = 3;
    private static final int ROWS_PER_FILE = 1000;
    private static final int ROW_GROUP_ROWS = 150; // 7 row groups per file, the last one short

    @TempDir
    Path dir;

    private final List<List<Object>> rows = new ArrayList<>();

    @BeforeEach
    void writeFiles() {
        try (TestingContext testing = new TestingContext()) {
            for (int f = 0; f < FILES; f++) {
                List<List<Object>> fileRows = new ArrayList<>();
                for (int r = 0; r < ROWS_PER_FILE; r++) {
                    long k = (long) f * ROWS_PER_FILE + r; // sorted: row groups cover disjoint key ranges
                    fileRows.add(java.util.Arrays.asList(k, r % 10 == 0 ? null : (int) (k % 7), "n" + k));
                }
                rows.addAll(fileRows);
                try (VectorSchemaRoot batch = Batches.fromRows(SCHEMA, fileRows, testing.allocator())) {
                    ParquetFiles.write(SCHEMA, List.of(batch).iterator(), dir.resolve("f" + f + ".parquet"),
                            ParquetWriteOptions.defaults().withRowGroupRows(ROW_GROUP_ROWS));
                }
            }
        }
    }

    @Test
    void distinctCountsAreEstimatedFromDictionariesAndValueRanges() {
        List<ColumnStatistics> columns = ParquetTable.open("t", dir).statistics().columns();
        // k: unique and sorted (row groups add up); grp: 7 values in every row group; name: unique
        // strings, for which the writer drops the dictionary (it would not save space), so unknown
        assertThat(columns).extracting(ColumnStatistics::distinctCount)
                .containsExactly(Estimate.inexact(FILES * ROWS_PER_FILE), Estimate.inexact(7), Estimate.absent());
    }

    @Test
    void withoutDictionariesOnlyValueRangesGiveDistinctCounts(@TempDir Path plain) {
        try (TestingContext testing = new TestingContext();
                VectorSchemaRoot batch = Batches.fromRows(SCHEMA, rows, testing.allocator())) {
            ParquetFiles.write(SCHEMA, List.of(batch).iterator(), plain.resolve("plain.parquet"),
                    ParquetWriteOptions.defaults().withRowGroupRows(ROW_GROUP_ROWS).withDictionary(false));
        }
        List<ColumnStatistics> columns = ParquetTable.open("t", plain).statistics().columns();
        assertThat(columns).extracting(ColumnStatistics::distinctCount)
                .containsExactly(Estimate.inexact(FILES * ROWS_PER_FILE), Estimate.inexact(7), Estimate.absent());
    }

    @Test
    void partitionsCoverEveryRowExactlyOnceAtRowGroupGranularity() {
        ParquetTable table = ParquetTable.open("t", dir);
        assertThat(table.files()).hasSize(FILES);
        assertThat(table.rowGroupCount()).isEqualTo(FILES * 7);
        assertThat(table.statistics().rowCount().value()).isEqualTo(FILES * ROWS_PER_FILE);
        try (TestingContext testing = new TestingContext().withBatchSize(64)) {
            ParquetScanExec scan = (ParquetScanExec) table.scan(ScanRequest.all(4));
            assertThat(scan.outputPartitioning().partitionCount()).isEqualTo(4);
            List<List<Object>> all = new ArrayList<>();
            long statRows = 0;
            for (int p = 0; p < 4; p++) {
                List<List<Object>> partition = new ArrayList<>();
                try (BatchStream stream = scan.execute(p, testing.context())) {
                    for (VectorSchemaRoot batch = stream.next(); batch != null; batch = stream.next()) {
                        try (VectorSchemaRoot owned = batch) {
                            assertThat(owned.getRowCount()).isLessThanOrEqualTo(64);
                            partition.addAll(Batches.toRows(owned));
                        }
                    }
                }
                Statistics stats = scan.partitionStatistics(OptionalInt.of(p));
                assertThat(stats.rowCount().isExact()).isTrue();
                assertThat(stats.rowCount().value()).isEqualTo(partition.size());
                // a split never cuts a row group: every partition holds whole row groups
                assertThat(partition.size() % ROW_GROUP_ROWS == 0 || partition.size() % ROW_GROUP_ROWS == ROWS_PER_FILE % ROW_GROUP_ROWS
                        || partition.size() % ROW_GROUP_ROWS == (2 * ROWS_PER_FILE) % ROW_GROUP_ROWS
                        || partition.size() % ROW_GROUP_ROWS == (3 * ROWS_PER_FILE) % ROW_GROUP_ROWS).isTrue();
                statRows += stats.rowCount().value();
                all.addAll(partition);
            }
            assertThat(statRows).isEqualTo(rows.size());
            all.sort(Comparator.comparing(row -> (Long) row.get(0)));
            assertThat(all).isEqualTo(rows);
            assertThat(scan.rowGroupsRead()).isEqualTo(FILES * 7);
            assertThat(scan.metrics().outputRows()).isEqualTo(rows.size());
        }
    }

    @Test
    void partitionsAreBalancedByBytes() {
        ParquetScanExec scan = (ParquetScanExec) ParquetTable.open("t", dir).scan(ScanRequest.all(3));
        long[] bytes = new long[3];
        for (int p = 0; p < 3; p++) {
            bytes[p] = scan.partitionStatistics(OptionalInt.of(p)).totalBytes().value();
        }
        long max = java.util.Arrays.stream(bytes).max().getAsLong();
        long min = java.util.Arrays.stream(bytes).min().getAsLong();
        // 21 row groups of nearly equal size over 3 partitions: within one row group of each other
        assertThat(max - min).isLessThanOrEqualTo(max / 6);
    }

    @Test
    void moreTargetPartitionsThanRowGroupsGivesOnePerRowGroup() {
        ParquetScanExec scan = (ParquetScanExec) ParquetTable.open("t", dir).scan(ScanRequest.all(100));
        assertThat(scan.outputPartitioning().partitionCount()).isEqualTo(FILES * 7);
    }

    @Test
    void projectionReadsOnlyTheRequestedColumnsInOrder() {
        ParquetTable table = ParquetTable.open("t", dir);
        try (TestingContext testing = new TestingContext()) {
            var scan = table.scan(new ScanRequest(Optional.of(List.of(2, 0)), List.of(), 2));
            assertThat(scan.schema().getFields()).extracting(f -> f.getName()).containsExactly("name", "k");
            List<List<Object>> actual = new ArrayList<>(testing.rows(scan));
            actual.sort(Comparator.comparing(row -> (Long) row.get(1)));
            assertThat(actual).isEqualTo(rows.stream().map(row -> List.of(row.get(2), row.get(0))).toList());
        }
    }

    @Test
    void emptyProjectionStillCountsRows() {
        ParquetTable table = ParquetTable.open("t", dir);
        try (TestingContext testing = new TestingContext()) {
            var scan = table.scan(new ScanRequest(Optional.of(List.of()), List.of(), 2));
            long count = 0;
            for (VectorSchemaRoot batch : PlanExecutor.collect(scan, testing.context())) {
                try (batch) {
                    count += batch.getRowCount();
                }
            }
            testing.reset();
            assertThat(count).isEqualTo(rows.size());
        }
    }

    @Test
    void selectiveFilterReadsFewerRowGroups() {
        ParquetTable table = ParquetTable.open("t", dir);
        // keys 1200..1449 live in row groups 1 and 2 of file f1 (rows 150..299 and 300..449)
        PhysicalExpr between = and(compare(BinaryOperator.GT_EQ, K, 1200L), compare(BinaryOperator.GT_EQ, 1449L, K));
        try (TestingContext testing = new TestingContext()) {
            ParquetScanExec scan = (ParquetScanExec) table.scan(new ScanRequest(Optional.empty(), List.of(between), 2));
            assertThat(scan.rowGroupsScanned()).isEqualTo(2);
            assertThat(scan.rowGroupsPruned()).isEqualTo(FILES * 7 - 2);
            assertThat(scan.displayLine()).contains("row_groups=2/21");
            List<List<Object>> read = testing.rows(scan);
            assertThat(scan.rowGroupsRead()).isEqualTo(2);
            assertThat(read).hasSize(300);
            assertThat(read.stream().filter(row -> (Long) row.get(0) >= 1200 && (Long) row.get(0) <= 1449)).hasSize(250);
        }
    }

    @Test
    void prunerHandlesOrInListNullsAndKeepsWhatItCannotDecide() {
        ParquetTable table = ParquetTable.open("t", dir);
        PhysicalExpr or = new BinaryExpr(BinaryOperator.OR, compare(BinaryOperator.LT, K, 10L), compare(BinaryOperator.GT, K, 2990L), QuiverTypes.BOOLEAN);
        assertThat(scanned(table, or)).isEqualTo(2);
        PhysicalExpr in = new InListExpr(K, List.of(5L, 2500L), false);
        assertThat(scanned(table, in)).isEqualTo(2);
        PhysicalExpr equalsNothing = compare(BinaryOperator.EQ, K, 5000L);
        assertThat(scanned(table, equalsNothing)).isZero();
        PhysicalExpr keyIsNull = new IsNullExpr(K, false);
        assertThat(scanned(table, keyIsNull)).isZero();
        ColumnExpr grp = new ColumnExpr(1, "grp", QuiverTypes.INT32, true);
        assertThat(scanned(table, new IsNullExpr(grp, false))).isEqualTo(FILES * 7);
        // not understood (column compared with column): nothing pruned
        assertThat(scanned(table, new BinaryExpr(BinaryOperator.LT, K, K, QuiverTypes.BOOLEAN))).isEqualTo(FILES * 7);
        // a literal of another type family is not compared with the bounds
        assertThat(scanned(table, new BinaryExpr(BinaryOperator.EQ, K, new LiteralExpr(5000, QuiverTypes.DATE32), QuiverTypes.BOOLEAN)))
                .isEqualTo(FILES * 7);
        // strings compare by their bytes: "n999" is the largest name
        assertThat(scanned(table, new BinaryExpr(BinaryOperator.GT, new ColumnExpr(2, "name", QuiverTypes.UTF8, true),
                new LiteralExpr("n999", QuiverTypes.UTF8), QuiverTypes.BOOLEAN))).isZero();
    }

    private static int scanned(ParquetTable table, PhysicalExpr filter) {
        return ((ParquetScanExec) table.scan(new ScanRequest(Optional.empty(), List.of(filter), 4))).rowGroupsScanned();
    }

    private static PhysicalExpr and(PhysicalExpr left, PhysicalExpr right) {
        return new BinaryExpr(BinaryOperator.AND, left, right, QuiverTypes.BOOLEAN);
    }

    private static PhysicalExpr compare(BinaryOperator op, Object left, Object right) {
        return new BinaryExpr(op, operand(left), operand(right), QuiverTypes.BOOLEAN);
    }

    private static PhysicalExpr operand(Object value) {
        return value instanceof PhysicalExpr expr ? expr : new LiteralExpr(value, QuiverTypes.INT64);
    }
}
