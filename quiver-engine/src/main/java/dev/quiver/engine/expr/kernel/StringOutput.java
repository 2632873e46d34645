package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.types.QuiverTypes;
import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * A VARCHAR result written row by row, in row order (as Arrow requires), with a scratch buffer
 * kernels build each value in. {@link #finish} hands the vector to the caller; closing an
 * unfinished output releases it (the error path).
 */
public final class StringOutput implements AutoCloseable {
    private final VarCharVector vector;
    private final int rows;
    private byte[] scratch = new byte[64];
    private boolean finished;

    public StringOutput(int rows, long estimatedBytes, BufferAllocator allocator) {
        this.rows = rows;
        this.vector = (VarCharVector) Vectors.allocate("expr", QuiverTypes.UTF8, rows, Math.max(estimatedBytes, 1), allocator);
    }

    /** A buffer of at least {@code capacity} bytes, reused between rows; growing keeps its contents. */
    public byte[] scratch(int capacity) {
        if (scratch.length < capacity) {
            scratch = Arrays.copyOf(scratch, Math.max(capacity, scratch.length * 2));
        }
        return scratch;
    }

    public void set(int row, byte[] bytes, int from, int length) {
        vector.setSafe(row, bytes, from, length);
    }

    public void setNull(int row) {
        vector.setNull(row);
    }

    public FieldVector finish() {
        vector.setValueCount(rows);
        finished = true;
        return vector;
    }

    @Override
    public void close() {
        if (!finished) {
            vector.close();
        }
    }
}
