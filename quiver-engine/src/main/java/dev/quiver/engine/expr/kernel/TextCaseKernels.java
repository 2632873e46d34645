package dev.quiver.engine.expr.kernel;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * upper, lower and initcap, character by character with Unicode's simple case mapping (one code
 * point to one code point, as DuckDB and PostgreSQL do, so {@code upper('ﬁ')} stays {@code 'ﬁ'}
 * and no string changes its length in characters). ASCII bytes take a byte-only path.
 */
public final class TextCaseKernels {
    /** How each character changes. */
    public enum Mapping { UPPER, LOWER, INITCAP }

    private static final int SHARP_S = 0xDF;
    private static final int CAPITAL_SHARP_S = 0x1E9E;

    private TextCaseKernels() {}

    public static FieldVector map(Mapping mapping, Operand text, int rows, BufferAllocator allocator) {
        StringColumn s = new StringColumn(text);
        try (StringOutput out = new StringOutput(rows, s.totalBytes(rows), allocator)) {
            for (int i = 0; i < rows; i++) {
                if (s.isNull(i)) {
                    out.setNull(i);
                    continue;
                }
                byte[] bytes = s.bytes(i);
                int size = s.length(i);
                // a character grows by at most one byte (2-byte letters with 3-byte counterparts)
                byte[] result = out.scratch(size + size / 2 + 4);
                int length = 0;
                boolean wordSoFar = false;
                for (int position = 0; position < size; ) {
                    byte b = bytes[position];
                    if (b >= 0) {
                        boolean upper = mapping == Mapping.UPPER || mapping == Mapping.INITCAP && !wordSoFar;
                        result[length++] = upper ? asciiUpper(b) : asciiLower(b);
                        wordSoFar = b >= '0' && b <= '9' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z';
                        position++;
                        continue;
                    }
                    int codePoint = Utf8.decode(bytes, position);
                    position += Utf8.width(b);
                    boolean upper = mapping == Mapping.UPPER || mapping == Mapping.INITCAP && !wordSoFar;
                    length = Utf8.encode(upper ? toUpper(codePoint) : Character.toLowerCase(codePoint), result, length);
                    wordSoFar = Character.isLetterOrDigit(codePoint);
                }
                out.set(i, result, 0, length);
            }
            return out.finish();
        }
    }

    private static byte asciiUpper(byte b) {
        return b >= 'a' && b <= 'z' ? (byte) (b - 32) : b;
    }

    private static byte asciiLower(byte b) {
        return b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
    }

    /** Java's simple upper-case mapping, except ß, which becomes ẞ as in DuckDB (Unicode has no simple mapping for it). */
    private static int toUpper(int codePoint) {
        return codePoint == SHARP_S ? CAPITAL_SHARP_S : Character.toUpperCase(codePoint);
    }
}
