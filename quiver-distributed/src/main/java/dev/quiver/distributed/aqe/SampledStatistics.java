package dev.quiver.distributed.aqe;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.stats.Statistics;
import java.util.Locale;

/**
 * A producer stage's output as extrapolated from its partitions' samples (DESIGN §5 step 5): the
 * engine {@link Statistics} (INEXACT) to attach to the boundary with
 * {@code StageInputExec.withStatistics}, and the raw numbers for EXPLAIN and events.
 *
 * @param rows estimated output rows of the whole stage
 * @param bytes estimated output bytes of the whole stage
 * @param distinctKeys estimated distinct hash-key tuples; -1 when the head has no keys
 * @param sampledRows rows the samplers actually saw
 * @param fractionSampled {@code sampledRows / rows} (1 when everything was seen)
 * @param partitionsReported samples received
 * @param partitionsWithData samples with at least one row
 * @param totalPartitions {@code T × P} of the stage
 * @param lowerBound some reported partition neither ended nor could say how far it had come (a
 *        blocking operator on its driver path, or no driver statistics), and no other partition's
 *        progress stood in for it: its output was counted as what the sample saw, so rows, bytes and
 *        keys are at least these
 */
public record SampledStatistics(int stageId, long rows, long bytes, long distinctKeys, long sampledRows, double fractionSampled,
        int partitionsReported, int partitionsWithData, int totalPartitions, boolean lowerBound, Statistics statistics) {
    public SampledStatistics {
        requireNonNull(statistics, "statistics is null");
    }

    /** One line for EXPLAIN, e.g. {@code estimated rows=~60000, bytes=~4.1 MiB, distinct keys=~15000 (sampled 21% from 2 of 8 partitions)}. */
    public String summary() {
        return "estimated rows=" + (lowerBound ? "≥" : "~") + rows + ", bytes=~" + ByteSize.formatBytes(bytes) + (distinctKeys >= 0 ? ", distinct keys=~" + distinctKeys : "")
                + " (sampled " + String.format(Locale.ROOT, "%.0f%%", 100 * fractionSampled) + " from " + partitionsReported + " of "
                + totalPartitions + " partitions)";
    }
}
