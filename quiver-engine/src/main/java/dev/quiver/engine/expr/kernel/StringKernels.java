package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * VARCHAR kernels working on the UTF-8 bytes of Arrow buffers: LIKE, SUBSTRING, UPPER, LOWER,
 * TRIM, CHAR_LENGTH, CONCAT. Positions and lengths count characters, as SQL does; ASCII text
 * takes byte-only paths.
 */
public final class StringKernels {
    private StringKernels() {}

    /** A VARCHAR operand as a vector (a constant is materialized; string functions of constants are rare). */
    private static VarCharVector strings(Operand operand, BufferAllocator allocator) {
        return (VarCharVector) operand.materialize(allocator);
    }

    /** Bytes of string data in the first {@code rows} values. */
    static long dataBytes(VarCharVector vector, int rows) {
        return rows == 0 ? 0 : vector.getOffsetBuffer().getInt((long) rows * 4);
    }

    public static FieldVector like(Operand input, LikeMatcher matcher, boolean negated, int rows, BufferAllocator allocator) {
        BitVector out = (BitVector) Vectors.allocate(QuiverTypes.BOOLEAN, rows, allocator);
        try (VarCharVector text = strings(input, allocator)) {
            ArrowBuf offsets = text.getOffsetBuffer();
            ArrowBuf data = text.getDataBuffer();
            ArrowBuf bits = out.getDataBuffer();
            for (int i = 0; i < rows; i++) {
                boolean match = matcher.matches(data, offsets.getInt((long) i * 4), offsets.getInt((long) i * 4 + 4));
                if (match != negated) {
                    Bitmaps.set(bits, i);
                }
            }
            Bitmaps.copy(out.getValidityBuffer(), text.getValidityBuffer(), rows);
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** SUBSTRING(text, start [, length]): characters {@code start .. start+length-1}, 1-based, clipped to the string. */
    public static FieldVector substring(Operand input, Operand start, Operand length, int rows, BufferAllocator allocator) {
        if (input.isNullConstant() || start.isNullConstant() || (length != null && length.isNullConstant())) {
            return Vectors.constant(QuiverTypes.UTF8, null, rows, allocator);
        }
        long[] starts = Numeric.decodeLongs(start);
        long[] lengths = length == null ? null : Numeric.decodeLongs(length);
        try (VarCharVector text = strings(input, allocator)) {
            VarCharVector out = (VarCharVector) Vectors.allocate("expr", QuiverTypes.UTF8, rows, dataBytes(text, rows) + 1, allocator);
            try {
                ArrowBuf offsets = text.getOffsetBuffer();
                ArrowBuf data = text.getDataBuffer();
                for (int i = 0; i < rows; i++) {
                    if (text.isNull(i) || start.isNull(i) || (length != null && length.isNull(i))) {
                        out.setNull(i);
                        continue;
                    }
                    long first = starts[i];
                    long endPosition = Long.MAX_VALUE; // exclusive, 1-based
                    if (lengths != null) {
                        if (lengths[i] < 0) {
                            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Negative substring length: " + lengths[i]);
                        }
                        endPosition = first + lengths[i];
                    }
                    first = Math.max(first, 1);
                    int from = offsets.getInt((long) i * 4);
                    int to = offsets.getInt((long) i * 4 + 4);
                    if (endPosition <= first) {
                        out.setSafe(i, from, 0, data);
                        continue;
                    }
                    int begin = advance(data, from, to, first - 1);
                    int finish = endPosition == Long.MAX_VALUE ? to : advance(data, begin, to, endPosition - first);
                    out.setSafe(i, begin, finish - begin, data);
                }
                out.setValueCount(rows);
                return out;
            } catch (RuntimeException e) {
                out.close();
                throw e;
            }
        }
    }

    /** The byte offset {@code characters} characters after {@code from}, at most {@code to}. */
    private static int advance(ArrowBuf data, int from, int to, long characters) {
        int position = from;
        for (long c = 0; c < characters && position < to; c++) {
            position += LikeMatcher.charLength(data.getByte(position));
        }
        return Math.min(position, to);
    }

    public static FieldVector changeCase(Operand input, boolean upper, int rows, BufferAllocator allocator) {
        try (VarCharVector text = strings(input, allocator)) {
            VarCharVector out = (VarCharVector) Vectors.allocate("expr", QuiverTypes.UTF8, rows, dataBytes(text, rows) + 1, allocator);
            try {
                ArrowBuf offsets = text.getOffsetBuffer();
                ArrowBuf data = text.getDataBuffer();
                byte[] scratch = new byte[64];
                for (int i = 0; i < rows; i++) {
                    if (text.isNull(i)) {
                        out.setNull(i);
                        continue;
                    }
                    int from = offsets.getInt((long) i * 4);
                    int length = offsets.getInt((long) i * 4 + 4) - from;
                    if (scratch.length < length) {
                        scratch = new byte[Math.max(length, scratch.length * 2)];
                    }
                    boolean ascii = true;
                    for (int k = 0; k < length; k++) {
                        byte b = data.getByte(from + k);
                        ascii &= b >= 0;
                        if (upper) {
                            scratch[k] = b >= 'a' && b <= 'z' ? (byte) (b - 32) : b;
                        } else {
                            scratch[k] = b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
                        }
                    }
                    if (ascii) {
                        out.setSafe(i, scratch, 0, length);
                    } else {
                        String value = new String(text.get(i), StandardCharsets.UTF_8);
                        out.setSafe(i, (upper ? value.toUpperCase(Locale.ROOT) : value.toLowerCase(Locale.ROOT)).getBytes(StandardCharsets.UTF_8));
                    }
                }
                out.setValueCount(rows);
                return out;
            } catch (RuntimeException e) {
                out.close();
                throw e;
            }
        }
    }

    /** TRIM: removes spaces at both ends. */
    public static FieldVector trim(Operand input, int rows, BufferAllocator allocator) {
        try (VarCharVector text = strings(input, allocator)) {
            VarCharVector out = (VarCharVector) Vectors.allocate("expr", QuiverTypes.UTF8, rows, dataBytes(text, rows) + 1, allocator);
            try {
                ArrowBuf offsets = text.getOffsetBuffer();
                ArrowBuf data = text.getDataBuffer();
                for (int i = 0; i < rows; i++) {
                    if (text.isNull(i)) {
                        out.setNull(i);
                        continue;
                    }
                    int from = offsets.getInt((long) i * 4);
                    int to = offsets.getInt((long) i * 4 + 4);
                    while (from < to && data.getByte(from) == ' ') {
                        from++;
                    }
                    while (to > from && data.getByte(to - 1) == ' ') {
                        to--;
                    }
                    out.setSafe(i, from, to - from, data);
                }
                out.setValueCount(rows);
                return out;
            } catch (RuntimeException e) {
                out.close();
                throw e;
            }
        }
    }

    /** CHAR_LENGTH in characters (UTF-8 lead bytes). */
    public static FieldVector charLength(Operand input, ArrowType type, int rows, BufferAllocator allocator) {
        try (VarCharVector text = strings(input, allocator)) {
            long[] lengths = new long[rows];
            ArrowBuf offsets = text.getOffsetBuffer();
            ArrowBuf data = text.getDataBuffer();
            for (int i = 0; i < rows; i++) {
                if (text.isNull(i)) {
                    continue;
                }
                int from = offsets.getInt((long) i * 4);
                int to = offsets.getInt((long) i * 4 + 4);
                long count = 0;
                for (int k = from; k < to; k++) {
                    count += (data.getByte(k) & 0xC0) != 0x80 ? 1 : 0;
                }
                lengths[i] = count;
            }
            FieldVector out = Vectors.allocate(type, rows, allocator);
            try {
                ArithmeticKernels.writeLongs(lengths, out, type, "CHAR_LENGTH", rows);
                Bitmaps.copy(out.getValidityBuffer(), text.getValidityBuffer(), rows);
                out.setValueCount(rows);
                return out;
            } catch (RuntimeException e) {
                out.close();
                throw e;
            }
        }
    }

    /**
     * Concatenates VARCHAR arguments: with {@code skipNulls} ({@code concat}) NULL arguments are
     * left out, otherwise ({@code ||}) any NULL makes the row NULL.
     */
    public static FieldVector concat(List<Operand> args, boolean skipNulls, int rows, BufferAllocator allocator) {
        VarCharVector[] vectors = new VarCharVector[args.size()];
        try {
            long bytes = 1;
            for (int a = 0; a < args.size(); a++) {
                vectors[a] = strings(args.get(a), allocator);
                bytes += dataBytes(vectors[a], rows);
            }
            VarCharVector out = (VarCharVector) Vectors.allocate("expr", QuiverTypes.UTF8, rows, bytes, allocator);
            try {
                byte[] scratch = new byte[64];
                for (int i = 0; i < rows; i++) {
                    int length = 0;
                    boolean isNull = false;
                    for (VarCharVector vector : vectors) {
                        if (vector.isNull(i)) {
                            if (skipNulls) {
                                continue;
                            }
                            isNull = true;
                            break;
                        }
                        int from = vector.getStartOffset(i);
                        int count = vector.getOffsetBuffer().getInt((long) i * 4 + 4) - from;
                        if (scratch.length < length + count) {
                            scratch = Arrays.copyOf(scratch, Math.max(length + count, scratch.length * 2));
                        }
                        vector.getDataBuffer().getBytes(from, scratch, length, count);
                        length += count;
                    }
                    if (isNull) {
                        out.setNull(i);
                    } else {
                        out.setSafe(i, scratch, 0, length);
                    }
                }
                out.setValueCount(rows);
                return out;
            } catch (RuntimeException e) {
                out.close();
                throw e;
            }
        } finally {
            for (VarCharVector vector : vectors) {
                if (vector != null) {
                    vector.close();
                }
            }
        }
    }
}
