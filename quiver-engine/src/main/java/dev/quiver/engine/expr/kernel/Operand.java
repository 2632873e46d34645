package dev.quiver.engine.expr.kernel;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * An evaluated argument of a kernel: either a vector the operand owns, or the constant of a
 * literal, which kernels use directly (the scalar fast paths) instead of materializing it.
 */
public final class Operand implements AutoCloseable {
    private final ArrowType type;
    private final FieldVector vector;
    private final Object constant;
    private final int rows;
    private final boolean owned;

    private Operand(ArrowType type, FieldVector vector, Object constant, int rows, boolean owned) {
        this.type = requireNonNull(type, "type is null");
        this.vector = vector;
        this.constant = constant;
        this.rows = rows;
        this.owned = owned;
    }

    /** Evaluates {@code expr} over {@code batch}, keeping a literal as a constant. */
    public static Operand evaluate(PhysicalExpr expr, VectorSchemaRoot batch, BufferAllocator allocator) {
        if (expr instanceof LiteralExpr literal) {
            return new Operand(literal.type(), null, literal.value(), batch.getRowCount(), false);
        }
        if (expr instanceof ColumnExpr column) {
            // kernels only read their operands, so a column is borrowed from the batch, not shared
            return new Operand(column.type(), batch.getVector(column.index()), null, batch.getRowCount(), false);
        }
        return new Operand(expr.type(), expr.evaluate(batch, allocator), null, batch.getRowCount(), true);
    }

    /** A constant operand of {@code rows} rows. */
    public static Operand constant(ArrowType type, Object value, int rows) {
        return new Operand(type, null, value, rows, false);
    }

    /** An operand over a vector this operand now owns. */
    public static Operand of(ArrowType type, FieldVector vector, int rows) {
        return new Operand(type, requireNonNull(vector, "vector is null"), null, rows, true);
    }

    public ArrowType type() {
        return type;
    }

    public int rows() {
        return rows;
    }

    public boolean isConstant() {
        return vector == null;
    }

    /** The constant's Java value (null for NULL); only for constants. */
    public Object constant() {
        return constant;
    }

    public boolean isNullConstant() {
        return vector == null && constant == null;
    }

    /** The vector; only for non-constants. */
    public FieldVector vector() {
        return vector;
    }

    public boolean isNull(int index) {
        return vector == null ? constant == null : vector.isNull(index);
    }

    /** Whether some row is NULL. */
    public boolean hasNulls() {
        return vector == null ? constant == null : vector.getNullCount() > 0;
    }

    /** The values as a vector the caller owns (a zero-copy share of this operand's vector, or a constant vector). */
    public FieldVector materialize(BufferAllocator allocator) {
        if (vector == null) {
            return Vectors.constant(type, constant, rows, allocator);
        }
        return Vectors.share(vector, rows, allocator);
    }

    @Override
    public void close() {
        if (owned) {
            vector.close();
        }
    }
}
