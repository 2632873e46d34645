package dev.quiver.distributed.aqe;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.operator.DriverLeaves;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.protocol.KeySketch;
import dev.quiver.distributed.protocol.PartitionSample;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.stats.DistinctEstimator;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The coordinator's side of sampling one producer stage (DESIGN §5 step 5). It gathers the
 * {@link PartitionSample}s of the stage's tasks, says when there are enough ({@link #offer}: 20% of
 * the partitions have reported data, or every partition has reported) and extrapolates them
 * ({@link #estimate}):
 * <ol>
 *   <li>each sampled partition is scaled to its whole output by its completion, the driver
 *       leaves' rows pulled over their expected rows (a partition that ended is whole);</li>
 *   <li>the reported partitions are scaled to the stage by the driver rows the whole stage expects
 *       over those the reported partitions expect (by partition count when unknown);</li>
 *   <li>distinct keys come from the merged key sketches: when the sample repeats its keys a lot
 *       the domain it implies, otherwise scaled with the rows (see docs/aqe.md).</li>
 * </ol>
 * Thread-safe: samples arrive on transport threads.
 */
public final class StageSampleCollector {
    /** The share of the stage's partitions that must have reported data before the coordinator stops waiting. */
    public static final double STOP_FRACTION = 0.2;
    /** Sampled partitions whose merged keys are at most this many times the largest one's share their keys. */
    static final double REPEATED_ACROSS_PARTITIONS = 1.1;
    /** A sample with at least {@code 1 - UNIQUE_TOLERANCE} distinct keys per row has not seen a key repeat (three standard errors). */
    static final double UNIQUE_TOLERANCE = 3 * KeySketch.KEY_STANDARD_ERROR;

    private final int stageId;
    private final Schema schema;
    private final int totalPartitions;
    private final long stageDriverRows;
    private final Map<Long, PartitionSample> samples = new TreeMap<>();

    /**
     * @param totalPartitions {@code T × P} of the stage
     * @param stageDriverRows rows the driver leaves of all tasks will output in all; -1 when unknown
     */
    public StageSampleCollector(int stageId, Schema schema, int totalPartitions, long stageDriverRows) {
        this.stageId = stageId;
        this.schema = requireNonNull(schema, "schema is null");
        if (totalPartitions < 1) {
            throw new IllegalArgumentException("stage " + stageId + " has no partitions to sample");
        }
        this.totalPartitions = totalPartitions;
        this.stageDriverRows = stageDriverRows;
    }

    /** A collector for a sized stage: its partitions and the driver rows its task plans expect. */
    public static StageSampleCollector forStage(Stage stage) {
        long driverRows = 0;
        for (ExecutionPlan plan : stage.taskPlans()) {
            long task = DriverLeaves.of(plan).rowsExpected();
            driverRows = task < 0 || driverRows < 0 ? -1 : driverRows + task;
        }
        return new StageSampleCollector(stage.stageId(), stage.plan().schema(), stage.taskCount() * stage.partitionsPerTask(), driverRows);
    }

    /** Records the sample of partition {@code sample.partition()} of task {@code taskIndex}; true once there are enough samples. */
    public synchronized boolean offer(int taskIndex, PartitionSample sample) {
        requireNonNull(sample, "sample is null");
        samples.put(((long) taskIndex << 32) | sample.partition(), sample);
        return isEnough();
    }

    /** The stop rule: {@code ceil(20%)} of all partitions reported data, or every partition reported. */
    public synchronized boolean isEnough() {
        long withData = samples.values().stream().filter(s -> s.rows() > 0).count();
        return samples.size() >= totalPartitions || withData >= Math.max(1, (long) Math.ceil(STOP_FRACTION * totalPartitions));
    }

    /** The extrapolated output of the stage from the samples so far; empty when none arrived. */
    public synchronized Optional<SampledStatistics> estimate() {
        if (samples.isEmpty()) {
            return Optional.empty();
        }
        List<PartitionSample> reported = List.copyOf(samples.values());
        double averageCompletion = averageCompletion(reported);
        boolean lowerBound = reported.stream().anyMatch(s -> s.completion() < 0)
                && reported.stream().noneMatch(s -> s.completion() > 0 && !s.endOfStream());
        double rows = 0;
        double bytes = 0;
        long sampledRows = 0;
        double reportedDriverRows = 0;
        boolean driverKnown = stageDriverRows >= 0;
        ColumnExtrapolation columns = new ColumnExtrapolation(schema.getFields().size());
        for (PartitionSample sample : reported) {
            double completion = sample.completion() > 0 ? sample.completion() : averageCompletion;
            rows += sample.rows() / completion;
            bytes += sample.bytes() / completion;
            sampledRows += sample.rows();
            if (sample.driverRowsExpected() >= 0) {
                reportedDriverRows += sample.driverRowsExpected();
            } else {
                driverKnown = false;
            }
            columns.add(sample, completion);
        }
        boolean all = reported.size() >= totalPartitions;
        double scale = all ? 1.0
                : driverKnown && reportedDriverRows > 0 ? stageDriverRows / reportedDriverRows
                : totalPartitions / (double) reported.size();
        scale = Math.max(1.0, scale);
        long totalRows = Math.max(sampledRows, Math.round(rows * scale));
        long totalBytes = Math.round(bytes * scale);
        long distinctKeys = distinctKeys(reported, sampledRows, totalRows);
        Statistics statistics = new Statistics(Estimate.inexact(totalRows), Estimate.inexact(totalBytes), columns.statistics(scale, totalRows));
        int withData = (int) reported.stream().filter(s -> s.rows() > 0).count();
        double fraction = totalRows == 0 ? 1.0 : Math.min(1.0, sampledRows / (double) totalRows);
        return Optional.of(new SampledStatistics(stageId, totalRows, totalBytes, distinctKeys, sampledRows, fraction, reported.size(), withData,
                totalPartitions, lowerBound, statistics));
    }

    /**
     * For the samples that do not know their completion: the mean completion of the partial samples
     * that do (1 when none does: a lower bound). Ended partitions say nothing about how far the
     * unfinished ones are.
     */
    private static double averageCompletion(List<PartitionSample> reported) {
        return reported.stream().filter(s -> !s.endOfStream()).mapToDouble(PartitionSample::completion).filter(c -> c > 0).average().orElse(1.0);
    }

    private static long distinctKeys(List<PartitionSample> reported, long sampledRows, long totalRows) {
        List<PartitionSample> keyed = reported.stream().filter(s -> !s.keySketch().isEmpty()).toList();
        if (keyed.isEmpty()) {
            return -1;
        }
        List<KeySketch> sketches = keyed.stream().map(s -> KeySketch.decode(s.keySketch())).toList();
        long distinct = Math.min(sampledRows, Math.round(KeySketch.merge(sketches).estimate()));
        long largest = sketches.stream().mapToLong(sketch -> Math.round(sketch.estimate())).max().orElse(0);
        if (keyed.size() >= 2 && distinct <= REPEATED_ACROSS_PARTITIONS * largest) {
            // the partitions hold the same keys (e.g. each a partial aggregate over the same groups):
            // the unsampled partitions most likely repeat them too, so the keys do not grow with the rows
            return distinct;
        }
        long halfRows = keyed.stream().mapToLong(PartitionSample::firstHalfRows).sum();
        long halfDistinct = Math.min(halfRows,
                Math.round(KeySketch.merge(keyed.stream().map(s -> KeySketch.decode(s.firstHalfKeySketch())).toList()).estimate()));
        return extrapolateKeys(distinct, sampledRows, halfDistinct, halfRows, totalRows);
    }

    /**
     * Distinct keys among {@code totalRows} from a sample of {@code rows} rows with {@code distinct}
     * keys, whose first {@code halfRows} rows held {@code halfDistinct}. Two models explain a sample:
     * keys drawn at random from a domain (then the domain {@link DistinctEstimator#domainSize} fits
     * is the answer), or keys arriving in clusters, as in data sorted or generated by key (then a
     * sample holds a share of the keys, and they scale with the rows). How many keys the first half
     * already had tells them apart: the model that predicts it better wins.
     */
    static long extrapolateKeys(long distinct, long rows, long halfDistinct, long halfRows, long totalRows) {
        if (rows <= 0 || totalRows <= 0) {
            return 0;
        }
        if (rows >= totalRows) {
            return Math.min(distinct, totalRows);
        }
        double linear = distinct * (totalRows / (double) rows);
        if (distinct >= (1 - UNIQUE_TOLERANCE) * rows) {
            // as many keys as rows, within the sketch's error: nothing was seen to repeat. The domain
            // a few percent of sketch error would imply is noise, and a high-cardinality GROUP BY
            // sized by it would get a fraction of its groups: the keys scale with the rows
            return clamp(linear, distinct, totalRows);
        }
        if (halfRows <= 0 || halfRows >= rows) {
            return extrapolateDistinct(distinct, rows, totalRows);
        }
        double domain = DistinctEstimator.domainSize(distinct, rows);
        if (Double.isInfinite(domain)) {
            return clamp(linear, distinct, totalRows);
        }
        double randomHalf = domain * -Math.expm1(-halfRows / domain);
        double clusteredHalf = distinct * (halfRows / (double) rows);
        boolean random = Math.abs(halfDistinct - randomHalf) <= Math.abs(halfDistinct - clusteredHalf);
        return clamp(random ? domain : linear, distinct, totalRows);
    }

    /**
     * Distinct values among {@code totalRows} from {@code sampleDistinct} among {@code sampleRows},
     * when nothing tells random from clustered values (columns): all of them when the sample is
     * everything; the domain the sample implies when it repeats its values a lot (at most one new
     * value in {@code 1 / DistinctEstimator.REPEATING} rows: flags, nations); otherwise in proportion to the rows.
     */
    static long extrapolateDistinct(long sampleDistinct, long sampleRows, long totalRows) {
        if (sampleRows <= 0 || totalRows <= 0) {
            return 0;
        }
        if (sampleRows >= totalRows) {
            return Math.min(sampleDistinct, totalRows);
        }
        double estimate = sampleDistinct <= DistinctEstimator.REPEATING * sampleRows
                ? DistinctEstimator.domainSize(sampleDistinct, sampleRows)
                : sampleDistinct * (totalRows / (double) sampleRows);
        return clamp(estimate, sampleDistinct, totalRows);
    }

    private static long clamp(double estimate, long low, long high) {
        return Math.max(low, Math.min(high, Math.round(estimate)));
    }
}
