package dev.quiver.engine.operator.sort;

/** A stable merge sort of {@code int}s (row numbers) by a comparator, without boxing. */
public final class IntSort {
    private static final int INSERTION_RUN = 32;

    private IntSort() {}

    public interface IntComparator {
        int compare(int a, int b);
    }

    public static void sort(int[] values, int length, IntComparator comparator) {
        for (int start = 0; start < length; start += INSERTION_RUN) {
            insertionSort(values, start, Math.min(length, start + INSERTION_RUN), comparator);
        }
        if (length <= INSERTION_RUN) {
            return;
        }
        int[] source = values;
        int[] target = new int[length];
        for (int width = INSERTION_RUN; width < length; width *= 2) {
            for (int left = 0; left < length; left += 2 * width) {
                int middle = Math.min(left + width, length);
                int right = Math.min(left + 2 * width, length);
                merge(source, target, left, middle, right, comparator);
            }
            int[] swap = source;
            source = target;
            target = swap;
        }
        if (source != values) {
            System.arraycopy(source, 0, values, 0, length);
        }
    }

    /** Sorts {@code values[from, to)}; a short range is sorted in place, a longer one in a copy. */
    public static void sort(int[] values, int from, int to, IntComparator comparator) {
        if (to - from <= INSERTION_RUN) {
            insertionSort(values, from, to, comparator);
            return;
        }
        int[] range = java.util.Arrays.copyOfRange(values, from, to);
        sort(range, range.length, comparator);
        System.arraycopy(range, 0, values, from, range.length);
    }

    private static void insertionSort(int[] values, int from, int to, IntComparator comparator) {
        for (int i = from + 1; i < to; i++) {
            int value = values[i];
            int j = i - 1;
            while (j >= from && comparator.compare(values[j], value) > 0) {
                values[j + 1] = values[j];
                j--;
            }
            values[j + 1] = value;
        }
    }

    private static void merge(int[] source, int[] target, int left, int middle, int right, IntComparator comparator) {
        if (middle >= right || comparator.compare(source[middle - 1], source[middle]) <= 0) {
            System.arraycopy(source, left, target, left, right - left);
            return;
        }
        int i = left;
        int j = middle;
        int out = left;
        while (i < middle && j < right) {
            target[out++] = comparator.compare(source[j], source[i]) < 0 ? source[j++] : source[i++];
        }
        while (i < middle) {
            target[out++] = source[i++];
        }
        while (j < right) {
            target[out++] = source[j++];
        }
    }
}
