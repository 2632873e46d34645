package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
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

    /** LIKE with a pattern per row: each distinct pattern is compiled when it first differs from the previous row's. */
    public static FieldVector likeEach(Operand input, Operand patterns, Optional<Character> escape, int rows, BufferAllocator allocator) {
        BitVector out = (BitVector) Vectors.allocate(QuiverTypes.BOOLEAN, rows, allocator);
        try (VarCharVector text = strings(input, allocator)) {
            StringColumn pattern = new StringColumn(patterns);
            ArrowBuf offsets = text.getOffsetBuffer();
            ArrowBuf data = text.getDataBuffer();
            ArrowBuf bits = out.getDataBuffer();
            String lastPattern = null;
            LikeMatcher matcher = null;
            for (int i = 0; i < rows; i++) {
                if (pattern.isNull(i)) {
                    continue;
                }
                String current = new String(pattern.bytes(i), 0, pattern.length(i), StandardCharsets.UTF_8);
                if (!current.equals(lastPattern)) {
                    matcher = LikeMatcher.compile(current, escape);
                    lastPattern = current;
                }
                if (text.isNull(i)) {
                    continue;
                }
                if (matcher.matches(data, offsets.getInt((long) i * 4), offsets.getInt((long) i * 4 + 4))) {
                    Bitmaps.set(bits, i);
                }
            }
            out.setValueCount(rows);
            Validity.and(out, rows, input, patterns);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
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

    /** concat_ws(separator, a, b, ...): the non-NULL arguments joined by separator; NULL when separator is. */
    public static FieldVector concatWithSeparator(Operand separator, List<Operand> args, int rows, BufferAllocator allocator) {
        StringColumn sep = new StringColumn(separator);
        StringColumn[] columns = new StringColumn[args.size()];
        long bytes = 1;
        for (int a = 0; a < columns.length; a++) {
            columns[a] = new StringColumn(args.get(a));
            bytes += columns[a].totalBytes(rows);
        }
        try (StringOutput out = new StringOutput(rows, bytes, allocator)) {
            for (int i = 0; i < rows; i++) {
                if (sep.isNull(i)) {
                    out.setNull(i);
                    continue;
                }
                byte[] sepBytes = sep.bytes(i);
                int sepLength = sep.length(i);
                int length = 0;
                boolean first = true;
                for (StringColumn column : columns) {
                    if (column.isNull(i)) {
                        continue;
                    }
                    int size = column.length(i);
                    byte[] result = out.scratch(length + sepLength + size);
                    if (!first) {
                        System.arraycopy(sepBytes, 0, result, length, sepLength);
                        length += sepLength;
                    }
                    System.arraycopy(column.bytes(i), 0, result, length, size);
                    length += size;
                    first = false;
                }
                out.set(i, out.scratch(length), 0, length);
            }
            return out.finish();
        }
    }
}
