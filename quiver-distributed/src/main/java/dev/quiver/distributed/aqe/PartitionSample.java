package dev.quiver.distributed.aqe;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What the sampler of one partition of a producer task saw before it started replaying (DESIGN §5
 * step 5). A plain record of numbers and strings so that a worker can send it as JSON on the task's
 * control stream (Jackson serializes records as they are).
 *
 * @param partition the partition of the task's stage plan (the producer head's input partition)
 * @param rows rows ready: pulled and buffered for replay
 * @param bytes bytes ready (Arrow buffer sizes, as {@code output_bytes} counts them)
 * @param batches batches ready
 * @param endOfStream the partition ended within the budget: {@code rows} and {@code bytes} are its whole output
 * @param blocked an operator on the driver path consumes all its input before it outputs (hash
 *        aggregate, full sort), so the driver rows do not measure the output's progress
 * @param driverRowsPulled rows the leaves of the driver path (the probe sides of joins) had output
 *        when sampling stopped; -1 when no driver leaf reports {@code output_rows}
 * @param driverRowsExpected rows the driver leaves will output for this partition in all, from
 *        their statistics; -1 when unknown
 * @param columns one per output column, in schema order
 * @param keySketch the producer head's hash-key tuple as a HyperLogLog sketch, Base64
 *        ({@link KeySketch}); empty when the head has no keys (coalesce, broadcast)
 * @param firstHalfRows the rows of the first half of the sample, in pull order (about {@code rows / 2})
 * @param firstHalfKeySketch the key sketch of those rows: how fast new keys appeared tells keys
 *        that arrive in clusters (sorted data) from keys drawn at random (see docs/aqe.md); empty without keys
 */
public record PartitionSample(int partition, long rows, long bytes, int batches, boolean endOfStream, boolean blocked, long driverRowsPulled,
        long driverRowsExpected, List<ColumnSample> columns, String keySketch, long firstHalfRows, String firstHalfKeySketch) {
    public PartitionSample {
        requireNonNull(keySketch, "keySketch is null");
        requireNonNull(firstHalfKeySketch, "firstHalfKeySketch is null");
        if (firstHalfRows < 0 || firstHalfRows > rows) {
            throw new IllegalArgumentException("the first half of a sample of " + rows + " rows cannot have " + firstHalfRows);
        }
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        if (partition < 0 || rows < 0 || bytes < 0 || batches < 0) {
            throw new IllegalArgumentException("a partition sample has no negative counts: partition=" + partition + ", rows=" + rows
                    + ", bytes=" + bytes + ", batches=" + batches);
        }
        if (driverRowsPulled < -1 || driverRowsExpected < -1) {
            throw new IllegalArgumentException("driver rows are counts or -1 (unknown): " + driverRowsPulled + ", " + driverRowsExpected);
        }
    }

    /**
     * How much of the partition's work the sample covers, from the driver leaves: 1 at the end of
     * the stream, else rows pulled over rows expected (capped at 1); -1 when unknown (also when
     * {@code blocked}).
     */
    public double completion() {
        if (endOfStream) {
            return 1.0;
        }
        if (blocked || driverRowsPulled < 0 || driverRowsExpected <= 0) {
            return -1;
        }
        return Math.min(1.0, Math.max(driverRowsPulled, 1) / (double) driverRowsExpected);
    }

    /** Distinct key tuples in the sample (the sketch's estimate); -1 without keys. */
    public long keyDistinct() {
        return keySketch.isEmpty() ? -1 : Math.round(KeySketch.decode(keySketch).estimate());
    }
}
