package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Kernels that cut or assemble characters of a string: substring, left, right, lpad, rpad,
 * repeat, reverse, split_part. Positions and counts are in characters (code points), as in DuckDB
 * and PostgreSQL; every loop works on UTF-8 bytes.
 */
public final class TextSliceKernels {
    /** The longest string repeat and the pads build, in bytes: Arrow's 32-bit offsets leave no more. */
    static final long MAX_RESULT_BYTES = Integer.MAX_VALUE / 2;

    private TextSliceKernels() {}

    /**
     * substring(s, start [, length]) as DuckDB has it: start counts from 1, a negative start from
     * the end ({@code -1} is the last character); a negative length takes the characters before
     * start. Positions outside the string are clipped.
     */
    public static FieldVector substring(Operand text, Operand start, Operand length, int rows, BufferAllocator allocator) {
        StringColumn s = new StringColumn(text);
        long[] starts = Numeric.decodeLongs(start);
        long[] lengths = length == null ? null : Numeric.decodeLongs(length);
        try (StringOutput out = new StringOutput(rows, s.totalBytes(rows), allocator)) {
            for (int i = 0; i < rows; i++) {
                if (s.isNull(i) || start.isNull(i) || length != null && length.isNull(i)) {
                    out.setNull(i);
                    continue;
                }
                byte[] bytes = s.bytes(i);
                int size = s.length(i);
                long characters = Utf8.count(bytes, 0, size);
                long begin = starts[i] > 0 ? starts[i] : starts[i] < 0 ? characters + starts[i] + 1 : 0;
                long end = Long.MAX_VALUE;
                if (lengths != null) {
                    long count = lengths[i];
                    end = count >= 0 ? saturatedAdd(begin, count) : begin;
                    begin = count >= 0 ? begin : saturatedAdd(begin, count);
                }
                begin = Math.max(begin, 1);
                end = Math.min(end, characters + 1);
                if (end <= begin) {
                    out.set(i, bytes, 0, 0);
                    continue;
                }
                int from = Utf8.skip(bytes, 0, size, begin - 1);
                int to = Utf8.skip(bytes, from, size, end - begin);
                out.set(i, bytes, from, to - from);
            }
            return out.finish();
        }
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : sum;
    }

    /** left(s, n): the first n characters; a negative n drops the last -n. right(s, n) likewise from the end. */
    public static FieldVector leftOrRight(boolean left, Operand text, Operand count, int rows, BufferAllocator allocator) {
        StringColumn s = new StringColumn(text);
        long[] counts = Numeric.decodeLongs(count);
        try (StringOutput out = new StringOutput(rows, s.totalBytes(rows), allocator)) {
            for (int i = 0; i < rows; i++) {
                if (s.isNull(i) || count.isNull(i)) {
                    out.setNull(i);
                    continue;
                }
                byte[] bytes = s.bytes(i);
                int size = s.length(i);
                long characters = Utf8.count(bytes, 0, size);
                long n = counts[i];
                long keep = n >= 0 ? Math.min(n, characters) : Math.max(characters + n, 0);
                if (left) {
                    out.set(i, bytes, 0, Utf8.skip(bytes, 0, size, keep));
                } else {
                    int from = Utf8.skip(bytes, 0, size, characters - keep);
                    out.set(i, bytes, from, size - from);
                }
            }
            return out.finish();
        }
    }

    /**
     * lpad/rpad(s, n, fill): s cut or padded with repetitions of fill to n characters. A negative
     * n gives ''; padding with an empty fill is an error, as in DuckDB.
     */
    public static FieldVector pad(boolean left, Operand text, Operand width, Operand fill, String display, int rows,
            BufferAllocator allocator) {
        StringColumn s = new StringColumn(text);
        StringColumn f = new StringColumn(fill);
        long[] widths = Numeric.decodeLongs(width);
        try (StringOutput out = new StringOutput(rows, s.totalBytes(rows), allocator)) {
            for (int i = 0; i < rows; i++) {
                if (s.isNull(i) || width.isNull(i) || f.isNull(i)) {
                    out.setNull(i);
                    continue;
                }
                byte[] bytes = s.bytes(i);
                int size = s.length(i);
                long target = Math.max(widths[i], 0);
                long characters = Utf8.count(bytes, 0, size);
                if (characters >= target) {
                    out.set(i, bytes, 0, Utf8.skip(bytes, 0, size, target));
                    continue;
                }
                byte[] fillBytes = f.bytes(i);
                int fillSize = f.length(i);
                if (fillSize == 0) {
                    throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Cannot pad with an empty string: " + display);
                }
                long missing = target - characters;
                int fillCharacters = Utf8.count(fillBytes, 0, fillSize);
                long padBytes = (missing / fillCharacters) * fillSize + Utf8.skip(fillBytes, 0, fillSize, missing % fillCharacters);
                if (padBytes + size > MAX_RESULT_BYTES) {
                    throw tooLong(display);
                }
                byte[] result = out.scratch((int) (padBytes + size));
                int position = left ? 0 : size;
                if (!left) {
                    System.arraycopy(bytes, 0, result, 0, size);
                }
                for (long written = 0; written < padBytes; ) {
                    int chunk = (int) Math.min(fillSize, padBytes - written);
                    System.arraycopy(fillBytes, 0, result, position, chunk);
                    position += chunk;
                    written += chunk;
                }
                if (left) {
                    System.arraycopy(bytes, 0, result, position, size);
                }
                out.set(i, result, 0, (int) (padBytes + size));
            }
            return out.finish();
        }
    }

    /** repeat(s, n): s n times; '' for n <= 0. */
    public static FieldVector repeat(Operand text, Operand times, String display, int rows, BufferAllocator allocator) {
        StringColumn s = new StringColumn(text);
        long[] counts = Numeric.decodeLongs(times);
        try (StringOutput out = new StringOutput(rows, s.totalBytes(rows), allocator)) {
            for (int i = 0; i < rows; i++) {
                if (s.isNull(i) || times.isNull(i)) {
                    out.setNull(i);
                    continue;
                }
                byte[] bytes = s.bytes(i);
                int size = s.length(i);
                long n = Math.max(counts[i], 0);
                if (size > 0 && n > MAX_RESULT_BYTES / size) {
                    throw tooLong(display);
                }
                int total = (int) (n * size);
                byte[] result = out.scratch(total);
                for (int k = 0; k < n; k++) {
                    System.arraycopy(bytes, 0, result, k * size, size);
                }
                out.set(i, result, 0, total);
            }
            return out.finish();
        }
    }

    /** reverse(s): the characters (code points) in reverse order. */
    public static FieldVector reverse(Operand text, int rows, BufferAllocator allocator) {
        StringColumn s = new StringColumn(text);
        try (StringOutput out = new StringOutput(rows, s.totalBytes(rows), allocator)) {
            for (int i = 0; i < rows; i++) {
                if (s.isNull(i)) {
                    out.setNull(i);
                    continue;
                }
                byte[] bytes = s.bytes(i);
                int size = s.length(i);
                byte[] result = out.scratch(size);
                for (int position = 0; position < size; ) {
                    int width = Utf8.width(bytes[position]);
                    System.arraycopy(bytes, position, result, size - position - width, width);
                    position += width;
                }
                out.set(i, result, 0, size);
            }
            return out.finish();
        }
    }

    /**
     * split_part(s, delimiter, n): the n-th field of s split at delimiter, counting from 1, or
     * from the end when n is negative; '' when there is no such field or n is 0. An empty
     * delimiter splits s into its characters (DuckDB).
     */
    public static FieldVector splitPart(Operand text, Operand delimiter, Operand index, int rows, BufferAllocator allocator) {
        StringColumn s = new StringColumn(text);
        StringColumn d = new StringColumn(delimiter);
        long[] indexes = Numeric.decodeLongs(index);
        try (StringOutput out = new StringOutput(rows, s.totalBytes(rows), allocator)) {
            int[] bounds = new int[2];
            for (int i = 0; i < rows; i++) {
                if (s.isNull(i) || d.isNull(i) || index.isNull(i)) {
                    out.setNull(i);
                    continue;
                }
                byte[] bytes = s.bytes(i);
                if (field(bytes, s.length(i), d.bytes(i), d.length(i), indexes[i], bounds)) {
                    out.set(i, bytes, bounds[0], bounds[1] - bounds[0]);
                } else {
                    out.set(i, bytes, 0, 0);
                }
            }
            return out.finish();
        }
    }

    /** Finds field {@code n} (see splitPart) and stores its byte bounds; false if there is none. */
    private static boolean field(byte[] bytes, int size, byte[] delimiter, int delimiterSize, long n, int[] bounds) {
        if (n == 0) {
            return false;
        }
        int fields = 0;
        int start = 0;
        // count the fields first when n counts from the end
        long wanted = n;
        if (n < 0) {
            int total = countFields(bytes, size, delimiter, delimiterSize);
            wanted = total + n + 1;
            if (wanted < 1) {
                return false;
            }
        }
        while (true) {
            int end = nextDelimiter(bytes, start, size, delimiter, delimiterSize);
            fields++;
            if (fields == wanted) {
                bounds[0] = start;
                bounds[1] = end;
                return true;
            }
            if (end >= size) {
                return false;
            }
            start = end + delimiterSize;
        }
    }

    /** Where the field starting at {@code start} ends: the next delimiter, or the next character for an empty delimiter. */
    private static int nextDelimiter(byte[] bytes, int start, int size, byte[] delimiter, int delimiterSize) {
        if (delimiterSize == 0) {
            return start >= size ? size : start + Utf8.width(bytes[start]);
        }
        int found = Utf8.indexOf(bytes, start, size, delimiter, delimiterSize);
        return found < 0 ? size : found;
    }

    private static int countFields(byte[] bytes, int size, byte[] delimiter, int delimiterSize) {
        if (delimiterSize == 0) {
            return Math.max(Utf8.count(bytes, 0, size), 1);
        }
        int fields = 1;
        for (int found = Utf8.indexOf(bytes, 0, size, delimiter, delimiterSize); found >= 0;
                found = Utf8.indexOf(bytes, found + delimiterSize, size, delimiter, delimiterSize)) {
            fields++;
        }
        return fields;
    }

    private static QuiverException tooLong(String display) {
        return new QuiverException(ErrorCode.INVALID_ARGUMENT, "The result of " + display + " would exceed " + MAX_RESULT_BYTES + " bytes");
    }
}
