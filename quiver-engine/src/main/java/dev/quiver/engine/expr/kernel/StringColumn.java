package dev.quiver.engine.expr.kernel;

import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.VarCharVector;

/**
 * A VARCHAR operand read row by row as UTF-8 bytes in a {@code byte[]}: a constant is encoded
 * once; a vector's row is copied into a buffer reused from row to row, so reading allocates
 * nothing per row. {@link #bytes} is valid until the next call for another row.
 */
public final class StringColumn {
    private final Operand operand;
    private final byte[] constant;
    private final ArrowBuf offsets;
    private final ArrowBuf data;
    private byte[] buffer = new byte[64];
    private int loadedRow = -1;

    public StringColumn(Operand operand) {
        this.operand = operand;
        if (operand.isConstant()) {
            Object value = operand.constant();
            this.constant = value == null ? null : ((String) value).getBytes(StandardCharsets.UTF_8);
            this.offsets = null;
            this.data = null;
        } else {
            VarCharVector vector = (VarCharVector) operand.vector();
            this.constant = null;
            this.offsets = vector.getOffsetBuffer();
            this.data = vector.getDataBuffer();
        }
    }

    public boolean isConstant() {
        return operand.isConstant();
    }

    public boolean isNull(int row) {
        return operand.isNull(row);
    }

    /** Bytes of row {@code row}. */
    public int length(int row) {
        if (operand.isConstant()) {
            return constant == null ? 0 : constant.length;
        }
        return offsets.getInt((long) (row + 1) * 4) - offsets.getInt((long) row * 4);
    }

    /** The row's UTF-8 bytes, from index 0 to {@link #length}. */
    public byte[] bytes(int row) {
        if (operand.isConstant()) {
            return constant;
        }
        if (row != loadedRow) {
            int start = offsets.getInt((long) row * 4);
            int length = offsets.getInt((long) (row + 1) * 4) - start;
            if (buffer.length < length) {
                buffer = new byte[Math.max(length, buffer.length * 2)];
            }
            data.getBytes(start, buffer, 0, length);
            loadedRow = row;
        }
        return buffer;
    }

    /** Bytes of all {@code rows} values together, for sizing a result. */
    public long totalBytes(int rows) {
        if (operand.isConstant()) {
            return (long) length(0) * rows;
        }
        return rows == 0 ? 0 : offsets.getInt((long) rows * 4) - offsets.getInt(0);
    }
}
