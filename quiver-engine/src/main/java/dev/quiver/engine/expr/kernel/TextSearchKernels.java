package dev.quiver.engine.expr.kernel;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** Kernels that look for one string in another: strpos, contains, starts_with, ends_with, replace. Bytes compare exactly. */
public final class TextSearchKernels {
    /** What starts_with, ends_with and contains test. */
    public enum Test { STARTS_WITH, ENDS_WITH, CONTAINS }

    private TextSearchKernels() {}

    /** strpos(s, needle): the 1-based character position of the first occurrence, 0 if none; an empty needle is at 1. */
    public static FieldVector strpos(Operand text, Operand needle, ArrowType type, String display, int rows, BufferAllocator allocator) {
        StringColumn s = new StringColumn(text);
        StringColumn n = new StringColumn(needle);
        long[] positions = new long[rows];
        for (int i = 0; i < rows; i++) {
            if (Results.anyNull(i, text, needle)) {
                continue;
            }
            byte[] bytes = s.bytes(i);
            int found = Utf8.indexOf(bytes, 0, s.length(i), n.bytes(i), n.length(i));
            positions[i] = found < 0 ? 0 : Utf8.count(bytes, 0, found) + 1;
        }
        return Results.longs(positions, type, display, rows, allocator, text, needle);
    }

    public static FieldVector test(Test test, Operand text, Operand part, int rows, BufferAllocator allocator) {
        StringColumn s = new StringColumn(text);
        StringColumn p = new StringColumn(part);
        boolean[] results = new boolean[rows];
        for (int i = 0; i < rows; i++) {
            if (Results.anyNull(i, text, part)) {
                continue;
            }
            byte[] bytes = s.bytes(i);
            int size = s.length(i);
            byte[] partBytes = p.bytes(i);
            int partSize = p.length(i);
            results[i] = partSize <= size && switch (test) {
                case STARTS_WITH -> Utf8.regionEquals(bytes, 0, partBytes, 0, partSize);
                case ENDS_WITH -> Utf8.regionEquals(bytes, size - partSize, partBytes, 0, partSize);
                case CONTAINS -> Utf8.indexOf(bytes, 0, size, partBytes, partSize) >= 0;
            };
        }
        return Results.booleans(results, rows, allocator, text, part);
    }

    /** replace(s, from, to): every occurrence of from, left to right and not overlapping, replaced; an empty from changes nothing. */
    public static FieldVector replace(Operand text, Operand from, Operand to, int rows, BufferAllocator allocator) {
        StringColumn s = new StringColumn(text);
        StringColumn f = new StringColumn(from);
        StringColumn t = new StringColumn(to);
        try (StringOutput out = new StringOutput(rows, s.totalBytes(rows), allocator)) {
            for (int i = 0; i < rows; i++) {
                if (Results.anyNull(i, text, from, to)) {
                    out.setNull(i);
                    continue;
                }
                byte[] bytes = s.bytes(i);
                int size = s.length(i);
                byte[] pattern = f.bytes(i);
                int patternSize = f.length(i);
                int found = patternSize == 0 ? -1 : Utf8.indexOf(bytes, 0, size, pattern, patternSize);
                if (found < 0) {
                    out.set(i, bytes, 0, size);
                    continue;
                }
                byte[] replacement = t.bytes(i);
                int replacementSize = t.length(i);
                int length = 0;
                int start = 0;
                byte[] result = out.scratch(size);
                while (found >= 0) {
                    result = out.scratch(length + (found - start) + replacementSize);
                    System.arraycopy(bytes, start, result, length, found - start);
                    length += found - start;
                    System.arraycopy(replacement, 0, result, length, replacementSize);
                    length += replacementSize;
                    start = found + patternSize;
                    found = Utf8.indexOf(bytes, start, size, pattern, patternSize);
                }
                result = out.scratch(length + size - start);
                System.arraycopy(bytes, start, result, length, size - start);
                length += size - start;
                out.set(i, result, 0, length);
            }
            return out.finish();
        }
    }
}
