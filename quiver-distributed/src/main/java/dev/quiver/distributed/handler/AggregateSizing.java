package dev.quiver.distributed.handler;

import java.util.Locale;

/**
 * What {@link AggregateMemorySizingHandler} decided for one boundary, and why.
 *
 * @param groups G, the estimated groups of the FINAL (or SINGLE) aggregate
 * @param groupsSource where G came from (the key sketch, the catalog, or the producer's row estimate)
 * @param bytesPerGroup bytes one group brings on average (its table slot, keys with their strings, accumulators, its share of a
 *     DISTINCT aggregate's pairs)
 * @param consumerTasks n, the smallest task count whose per-worker state fits
 * @param workers W
 * @param partitionsPerConsumerTask {@code P_c}, the aggregate's partitions per task
 * @param taskBytes what one consumer task's aggregate state (all its partitions) is budgeted: the estimate for the safety factor × G groups
 * @param estimatedTaskBytes the estimated peak of that state for G groups themselves (what a measured peak compares with)
 * @param workerBytes {@code ceil(n/W)} tasks' state plus the co-resident producer bytes
 * @param coResidentBytes the producer tasks' batches on the same worker (one per partition)
 * @param workerLimit the smallest worker memory limit
 */
public record AggregateSizing(long groups, String groupsSource, long bytesPerGroup, int consumerTasks, int workers, int partitionsPerConsumerTask,
        long taskBytes, long estimatedTaskBytes, long workerBytes, long coResidentBytes, long workerLimit) {
    /** One line for events and the demo. */
    public String summary() {
        return String.format(Locale.ROOT, "G=%d groups (%s) × %d B/group; n=%d tasks on W=%d workers (P_c=%d): %d B per task, %d B per worker "
                + "(incl. %d B producer batches) of %d B", groups, groupsSource, bytesPerGroup, consumerTasks, workers, partitionsPerConsumerTask,
                taskBytes, workerBytes, coResidentBytes, workerLimit);
    }
}
