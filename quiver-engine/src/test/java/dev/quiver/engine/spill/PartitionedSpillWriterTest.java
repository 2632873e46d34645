package dev.quiver.engine.spill;

import static dev.quiver.engine.testing.CancelOnceFilesExist.filesUnder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.compression.IpcCompression;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.types.QuiverTypes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionedSpillWriterTest {
    private static final Schema SCHEMA = new Schema(List.of(QuiverTypes.field("id", QuiverTypes.INT64, true)));

    @TempDir
    Path parent;

    @Test
    void givesEachPartitionItsRowsInOrderAndNullWhereNothingWasWritten() throws IOException {
        try (BufferAllocator allocator = new RootAllocator();
                SpillDirectory directory = new SpillDirectory(parent, "q1", IpcCompression.LZ4.newCodec(), SpillDirectory.FileOpener.DEFAULT);
                PartitionedSpillWriter writer = new PartitionedSpillWriter(directory, "HashJoinExec[partition=0]-level0", SCHEMA, 3)) {
            long bytes = 0;
            bytes += write(writer, 0, allocator, 1L, 2L);
            bytes += write(writer, 2, allocator, 3L, null);
            bytes += write(writer, 0, allocator, 4L);
            List<SpillFile> files = writer.finish();
            assertThat(files).hasSize(3);
            assertThat(files.get(1)).isNull();
            assertThat(files.get(0).rows()).isEqualTo(3);
            assertThat(bytes).isPositive().isLessThanOrEqualTo(files.get(0).bytes() + files.get(2).bytes());
            assertThat(read(files.get(0), allocator)).containsExactly(1L, 2L, 4L);
            assertThat(read(files.get(2), allocator)).containsExactly(3L, null);
            // reading a file deletes it
            assertThat(filesUnder(parent).stream().filter(path -> path.toString().endsWith(".arrow"))).isEmpty();
        }
        assertThat(filesUnder(parent)).isEmpty();
    }

    @Test
    void closingBeforeFinishingDeletesWhatWasWritten() throws IOException {
        try (BufferAllocator allocator = new RootAllocator();
                SpillDirectory directory = new SpillDirectory(parent, "q1", IpcCompression.NONE.newCodec(), SpillDirectory.FileOpener.DEFAULT)) {
            PartitionedSpillWriter writer = new PartitionedSpillWriter(directory, "agg", SCHEMA, 2);
            write(writer, 1, allocator, 7L);
            assertThat(filesUnder(parent).stream().filter(path -> path.toString().endsWith(".arrow"))).hasSize(1);
            writer.close();
            assertThat(filesUnder(parent).stream().filter(path -> path.toString().endsWith(".arrow"))).isEmpty();
            assertThatThrownBy(() -> new PartitionedSpillWriter(directory, "agg", SCHEMA, 0)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static long write(PartitionedSpillWriter writer, int partition, BufferAllocator allocator, Long... ids) {
        List<List<Object>> rows = new ArrayList<>();
        for (Long id : ids) {
            rows.add(Collections.singletonList(id));
        }
        try (VectorSchemaRoot batch = Batches.fromRows(SCHEMA, rows, allocator)) {
            return writer.write(partition, batch);
        }
    }

    private static List<Object> read(SpillFile file, BufferAllocator allocator) {
        List<Object> ids = new ArrayList<>();
        try (BatchStream stream = file.open(allocator)) {
            for (VectorSchemaRoot next = stream.next(); next != null; next = stream.next()) {
                try (VectorSchemaRoot batch = next) {
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        ids.add(VectorValues.get(batch.getVector(0), row));
                    }
                }
            }
        }
        return ids;
    }
}
