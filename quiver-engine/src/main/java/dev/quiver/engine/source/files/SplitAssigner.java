package dev.quiver.engine.source.files;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToLongFunction;
import java.util.stream.IntStream;

/**
 * Groups the splits of a file table into scan partitions: the heaviest split first to the lightest
 * partition, then each partition back in the splits' original order, so that a partition reads its
 * files front to back.
 */
public final class SplitAssigner {
    private SplitAssigner() {}

    /** At most {@code target} partitions (at least one, possibly empty when there are no splits). */
    public static <T> List<List<T>> assign(List<T> splits, ToLongFunction<T> weight, int target) {
        int count = Math.max(1, Math.min(target, splits.size()));
        List<List<Integer>> indexes = new ArrayList<>(count);
        long[] load = new long[count];
        for (int p = 0; p < count; p++) {
            indexes.add(new ArrayList<>());
        }
        List<Integer> order = IntStream.range(0, splits.size()).boxed()
                .sorted(Comparator.comparingLong((Integer i) -> -weight.applyAsLong(splits.get(i))).thenComparing(i -> i))
                .toList();
        for (int i : order) {
            int lightest = 0;
            for (int p = 1; p < count; p++) {
                if (load[p] < load[lightest]) {
                    lightest = p;
                }
            }
            indexes.get(lightest).add(i);
            load[lightest] += Math.max(1, weight.applyAsLong(splits.get(i)));
        }
        List<List<T>> partitions = new ArrayList<>(count);
        for (List<Integer> partition : indexes) {
            partitions.add(partition.stream().sorted().map(splits::get).toList());
        }
        return partitions;
    }
}
