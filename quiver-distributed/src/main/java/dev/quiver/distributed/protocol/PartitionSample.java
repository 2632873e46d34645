package dev.quiver.distributed.protocol;

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
 * @param blocked an operator on the driver path may consume all its input before it outputs (hash
 *        aggregate, full sort): the driver rows measure the output's progress only if it streamed
 * @param driverState where the driver leaves were when sampling stopped: a blocking operator that
 *        output rows while they ran streamed them, so the driver rows measure its progress after all
 * @param pendingRows rows the blocking operator still held and would output when sampling stopped
 *        (its groups or sorted rows not yet emitted), when it is the only one on the driver path and
 *        only projections sit above it; -1 when unknown or not blocked
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
public record PartitionSample(int partition, long rows, long bytes, int batches, boolean endOfStream, boolean blocked, DriverState driverState,
        long pendingRows, long driverRowsPulled,
        long driverRowsExpected, List<ColumnSample> columns, String keySketch, long firstHalfRows, String firstHalfKeySketch) {
    public PartitionSample {
        requireNonNull(driverState, "driverState is null");
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
        if (driverRowsPulled < -1 || driverRowsExpected < -1 || pendingRows < -1) {
            throw new IllegalArgumentException("driver and pending rows are counts or -1 (unknown): " + driverRowsPulled + ", " + driverRowsExpected
                    + ", " + pendingRows);
        }
    }

    /**
     * How much of the partition's output the sample holds: 1 at the end of the stream; else the
     * driver leaves' rows pulled over their rows expected (capped at 1). With a blocking operator
     * on the driver path (DESIGN §5 step 5; docs/aqe.md):
     * <ul>
     *   <li>its input ended: the sample's share of the rows output plus those it still holds
     *       ({@code rows / (rows + pendingRows)}, exact), else unknown;</li>
     *   <li>its input still running: it streams; the driver progress times that share (rows it
     *       holds are owed to the input consumed so far), or the driver progress alone when it
     *       does not report what it holds;</li>
     *   <li>unknown otherwise.</li>
     * </ul>
     * -1 when unknown: the estimate then falls back on other partitions or is a lower bound.
     */
    public double completion() {
        if (endOfStream) {
            return 1.0;
        }
        double progress = driverRowsPulled < 0 || driverRowsExpected <= 0 ? -1
                : Math.min(1.0, Math.max(driverRowsPulled, 1) / (double) driverRowsExpected);
        if (!blocked) {
            return progress;
        }
        double held = pendingRows < 0 || rows == 0 ? -1 : rows / (double) (rows + pendingRows);
        return switch (driverState) {
            case ENDED -> held;
            case RUNNING -> progress < 0 ? -1 : held < 0 ? progress : held * progress;
            case UNKNOWN -> -1;
        };
    }

    /** Distinct key tuples in the sample (the sketch's estimate); -1 without keys. */
    public long keyDistinct() {
        return keySketch.isEmpty() ? -1 : Math.round(KeySketch.decode(keySketch).estimate());
    }
}
