package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** ascii(s) and chr(n): between a string's first character and its Unicode code point. */
public final class CodePointKernels {
    private CodePointKernels() {}

    /** The code point of the first character; 0 for ''. */
    public static FieldVector ascii(Operand text, ArrowType type, String display, int rows, BufferAllocator allocator) {
        StringColumn s = new StringColumn(text);
        long[] codes = new long[rows];
        for (int i = 0; i < rows; i++) {
            if (!s.isNull(i) && s.length(i) > 0) {
                codes[i] = Utf8.decode(s.bytes(i), 0);
            }
        }
        return Results.longs(codes, type, display, rows, allocator, text);
    }

    /** The character with code point n; INVALID_ARGUMENT outside Unicode's scalar values. */
    public static FieldVector chr(Operand code, String display, int rows, BufferAllocator allocator) {
        long[] codes = Numeric.decodeLongs(code);
        try (StringOutput out = new StringOutput(rows, rows * 2L, allocator)) {
            for (int i = 0; i < rows; i++) {
                if (code.isNull(i)) {
                    out.setNull(i);
                    continue;
                }
                long n = codes[i];
                if (n < 0 || n > Character.MAX_CODE_POINT || n >= Character.MIN_SURROGATE && n <= Character.MAX_SURROGATE) {
                    throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Not a Unicode code point: " + n + " in " + display);
                }
                byte[] scratch = out.scratch(4);
                out.set(i, scratch, 0, Utf8.encode((int) n, scratch, 0));
            }
            return out.finish();
        }
    }
}
