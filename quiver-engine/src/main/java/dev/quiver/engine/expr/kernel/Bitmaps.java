package dev.quiver.engine.expr.kernel;

import org.apache.arrow.memory.ArrowBuf;

/**
 * Word-at-a-time operations on Arrow bitmaps (validity and BOOLEAN data). Buffers of sliced
 * vectors may end mid-word, so tails go byte by byte.
 */
public final class Bitmaps {
    private Bitmaps() {}

    public static boolean get(ArrowBuf bits, int index) {
        return (bits.getByte(index >> 3) & (1 << (index & 7))) != 0;
    }

    public static void set(ArrowBuf bits, int index) {
        long byteIndex = index >> 3;
        bits.setByte(byteIndex, bits.getByte(byteIndex) | (1 << (index & 7)));
    }

    public static void clear(ArrowBuf bits, int index) {
        long byteIndex = index >> 3;
        bits.setByte(byteIndex, bits.getByte(byteIndex) & ~(1 << (index & 7)));
    }

    /** Reads word {@code w} (bits {@code 64w .. 64w+63}), zero-filled past {@code rows}. */
    public static long word(ArrowBuf bits, int w, int rows) {
        int start = w << 6;
        if (start + 64 <= rows) {
            return bits.getLong((long) w << 3);
        }
        long word = 0;
        int bytes = (rows - start + 7) >> 3;
        for (int b = 0; b < bytes; b++) {
            word |= (bits.getByte(((long) w << 3) + b) & 0xFFL) << (b << 3);
        }
        int valid = rows - start;
        return valid >= 64 ? word : word & ((1L << valid) - 1);
    }

    /** Writes word {@code w}, touching only the bytes that hold rows below {@code rows}. */
    public static void setWord(ArrowBuf bits, int w, long word, int rows) {
        int start = w << 6;
        if (start + 64 <= rows) {
            bits.setLong((long) w << 3, word);
            return;
        }
        int valid = rows - start;
        word &= (1L << valid) - 1;
        int bytes = (valid + 7) >> 3;
        for (int b = 0; b < bytes; b++) {
            bits.setByte(((long) w << 3) + b, (byte) (word >>> (b << 3)));
        }
    }

    public static int words(int rows) {
        return (rows + 63) >> 6;
    }

    /** {@code out = a AND b} over {@code rows} bits. */
    public static void and(ArrowBuf out, ArrowBuf a, ArrowBuf b, int rows) {
        for (int w = 0; w < words(rows); w++) {
            setWord(out, w, word(a, w, rows) & word(b, w, rows), rows);
        }
    }

    public static void copy(ArrowBuf out, ArrowBuf a, int rows) {
        for (int w = 0; w < words(rows); w++) {
            setWord(out, w, word(a, w, rows), rows);
        }
    }

    /** How many of the first {@code rows} bits are set. */
    public static int count(ArrowBuf bits, int rows) {
        int count = 0;
        for (int w = 0; w < words(rows); w++) {
            count += Long.bitCount(word(bits, w, rows));
        }
        return count;
    }
}
