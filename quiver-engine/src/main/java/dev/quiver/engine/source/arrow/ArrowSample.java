package dev.quiver.engine.source.arrow;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.SampledColumns;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.util.Text;

/**
 * Samples an Arrow IPC table for distinct-count estimates (its files carry no column statistics):
 * {@value SampledColumns#PARTS} runs of up to {@value SampledColumns#ROWS_PER_PART} rows starting
 * at rows spread evenly over the table (several in one record batch when the table has few), read
 * at opening; {@link SampledColumns} turns them into estimates.
 */
final class ArrowSample {
    private ArrowSample() {}

    /** Samples {@code splits} (the table's record batches, in file order). */
    static SampledColumns read(List<ArrowBlockSplit> splits, int columnCount, BufferAllocator allocator) {
        SampledColumns sample = new SampledColumns(columnCount);
        long total = splits.stream().mapToLong(ArrowBlockSplit::rowCount).sum();
        // the part starts falling in each split, as row offsets within it
        Map<Integer, List<Integer>> starts = new TreeMap<>();
        for (int p = 0; p < SampledColumns.PARTS && total > 0; p++) {
            long target = p * total / SampledColumns.PARTS;
            for (int s = 0; s < splits.size(); s++) {
                if (target < splits.get(s).rowCount()) {
                    starts.computeIfAbsent(s, k -> new ArrayList<>()).add((int) target);
                    break;
                }
                target -= splits.get(s).rowCount();
            }
        }
        starts.forEach((s, offsets) -> readParts(splits.get(s), offsets, sample, allocator));
        return sample;
    }

    private static void readParts(ArrowBlockSplit split, List<Integer> offsets, SampledColumns sample, BufferAllocator allocator) {
        try (FileChannel channel = FileChannel.open(split.file(), StandardOpenOption.READ);
                ArrowFileReader reader = new ArrowFileReader(channel, allocator)) {
            if (!reader.loadRecordBatch(reader.getRecordBlocks().get(split.index()))) {
                return;
            }
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            for (int start : offsets) {
                int end = Math.min(root.getRowCount(), start + SampledColumns.ROWS_PER_PART);
                for (int c = 0; c < root.getFieldVectors().size(); c++) {
                    FieldVector vector = root.getVector(c);
                    List<Object> values = new ArrayList<>(Math.max(0, end - start));
                    for (int row = start; row < end; row++) {
                        Object value = vector.getObject(row);
                        if (value != null) {
                            // Text is mutable and not Comparable
                            values.add(value instanceof Text text ? text.toString() : value);
                        }
                    }
                    sample.add(c, values);
                }
            }
        } catch (IOException | RuntimeException e) {
            String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot read Arrow IPC file " + split.file() + ": " + reason, e);
        }
    }
}
