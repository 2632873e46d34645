package dev.quiver.engine.expr.kernel;

import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * trim, ltrim, rtrim: remove from one or both ends every character that is in a set of
 * characters (spaces by default). The set is built once when it is a constant.
 */
public final class TrimKernels {
    /** Which ends to trim. */
    public enum Side { BOTH, LEADING, TRAILING }

    private static final byte[] SPACE = {' '};

    private TrimKernels() {}

    /** {@code characters} null: spaces. */
    public static FieldVector trim(Side side, Operand text, Operand characters, int rows, BufferAllocator allocator) {
        StringColumn s = new StringColumn(text);
        StringColumn c = characters == null ? null : new StringColumn(characters);
        CharacterSet constantSet = c == null ? CharacterSet.of(SPACE, 1) : c.isConstant() ? CharacterSet.of(c.bytes(0), c.length(0)) : null;
        try (StringOutput out = new StringOutput(rows, s.totalBytes(rows), allocator)) {
            for (int i = 0; i < rows; i++) {
                if (s.isNull(i) || c != null && c.isNull(i)) {
                    out.setNull(i);
                    continue;
                }
                CharacterSet set = constantSet != null ? constantSet : CharacterSet.of(c.bytes(i), c.length(i));
                byte[] bytes = s.bytes(i);
                int from = 0;
                int to = s.length(i);
                if (side != Side.TRAILING) {
                    while (from < to && set.contains(Utf8.decode(bytes, from))) {
                        from += Utf8.width(bytes[from]);
                    }
                }
                if (side != Side.LEADING) {
                    while (to > from) {
                        int last = to - 1;
                        while (last > from && (bytes[last] & 0xC0) == 0x80) {
                            last--;
                        }
                        if (!set.contains(Utf8.decode(bytes, last))) {
                            break;
                        }
                        to = last;
                    }
                }
                out.set(i, bytes, from, to - from);
            }
            return out.finish();
        }
    }

    /** The code points of a string, for membership tests: a bitmap for ASCII, a sorted array beyond. */
    private record CharacterSet(boolean[] ascii, int[] others) {
        static CharacterSet of(byte[] bytes, int length) {
            boolean[] ascii = new boolean[128];
            int[] others = new int[length];
            int count = 0;
            for (int position = 0; position < length; position += Utf8.width(bytes[position])) {
                int codePoint = Utf8.decode(bytes, position);
                if (codePoint < 128) {
                    ascii[codePoint] = true;
                } else {
                    others[count++] = codePoint;
                }
            }
            int[] sorted = Arrays.copyOf(others, count);
            Arrays.sort(sorted);
            return new CharacterSet(ascii, sorted);
        }

        boolean contains(int codePoint) {
            return codePoint < 128 ? ascii[codePoint] : others.length > 0 && Arrays.binarySearch(others, codePoint) >= 0;
        }
    }
}
