package dev.quiver.engine.expr.kernel;

/**
 * Code-point arithmetic on UTF-8 bytes held in a {@code byte[]}: the string kernels count,
 * skip and decode characters without building Java strings. Input is valid UTF-8 (Arrow VARCHAR).
 */
public final class Utf8 {
    private Utf8() {}

    /** The byte length of the character starting with {@code lead}. */
    public static int width(byte lead) {
        int b = lead & 0xFF;
        if (b < 0x80) {
            return 1;
        }
        if (b < 0xE0) {
            return 2;
        }
        return b < 0xF0 ? 3 : 4;
    }

    /** The number of characters in {@code bytes[from, to)}. */
    public static int count(byte[] bytes, int from, int to) {
        int count = 0;
        for (int i = from; i < to; i++) {
            count += (bytes[i] & 0xC0) != 0x80 ? 1 : 0;
        }
        return count;
    }

    /** The offset {@code characters} characters after {@code from}, at most {@code to}. */
    public static int skip(byte[] bytes, int from, int to, long characters) {
        int position = from;
        for (long c = 0; c < characters && position < to; c++) {
            position += width(bytes[position]);
        }
        return Math.min(position, to);
    }

    /** The code point starting at {@code position}. */
    public static int decode(byte[] bytes, int position) {
        int b = bytes[position] & 0xFF;
        return switch (width(bytes[position])) {
            case 1 -> b;
            case 2 -> (b & 0x1F) << 6 | bytes[position + 1] & 0x3F;
            case 3 -> (b & 0x0F) << 12 | (bytes[position + 1] & 0x3F) << 6 | bytes[position + 2] & 0x3F;
            default -> (b & 0x07) << 18 | (bytes[position + 1] & 0x3F) << 12 | (bytes[position + 2] & 0x3F) << 6 | bytes[position + 3] & 0x3F;
        };
    }

    /** The number of bytes {@code codePoint} takes. */
    public static int encodedWidth(int codePoint) {
        if (codePoint < 0x80) {
            return 1;
        }
        if (codePoint < 0x800) {
            return 2;
        }
        return codePoint < 0x10000 ? 3 : 4;
    }

    /** Writes {@code codePoint} at {@code position} and returns the position after it. */
    public static int encode(int codePoint, byte[] out, int position) {
        switch (encodedWidth(codePoint)) {
            case 1 -> out[position++] = (byte) codePoint;
            case 2 -> {
                out[position++] = (byte) (0xC0 | codePoint >> 6);
                out[position++] = (byte) (0x80 | codePoint & 0x3F);
            }
            case 3 -> {
                out[position++] = (byte) (0xE0 | codePoint >> 12);
                out[position++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
                out[position++] = (byte) (0x80 | codePoint & 0x3F);
            }
            default -> {
                out[position++] = (byte) (0xF0 | codePoint >> 18);
                out[position++] = (byte) (0x80 | codePoint >> 12 & 0x3F);
                out[position++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
                out[position++] = (byte) (0x80 | codePoint & 0x3F);
            }
        }
        return position;
    }

    /** The first index of {@code needle[0, needleLength)} in {@code haystack[from, to)} at or after {@code from}, or -1. */
    public static int indexOf(byte[] haystack, int from, int to, byte[] needle, int needleLength) {
        if (needleLength == 0) {
            return from;
        }
        byte first = needle[0];
        int last = to - needleLength;
        outer:
        for (int i = from; i <= last; i++) {
            if (haystack[i] != first) {
                continue;
            }
            for (int k = 1; k < needleLength; k++) {
                if (haystack[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Whether {@code a[aFrom, aFrom+length)} equals {@code b[bFrom, bFrom+length)}. */
    public static boolean regionEquals(byte[] a, int aFrom, byte[] b, int bFrom, int length) {
        return java.util.Arrays.equals(a, aFrom, aFrom + length, b, bFrom, bFrom + length);
    }
}
