package dev.quiver.engine.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.QuiverException.SqlPosition;
import dev.quiver.engine.expr.kernel.CastKernels;
import dev.quiver.engine.expr.kernel.Operand;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * {@code CAST(input AS type)} between the Quiver types. Numeric casts that do not fit the target
 * fail with NUMERIC_VALUE_OUT_OF_RANGE; decimal rescaling rounds HALF_UP; string to number or date
 * that does not parse fails with INVALID_CAST naming the value.
 *
 * @param position where the CAST is in the SQL text, if it was written there: a value it rejects
 *     fails naming that place, so that a user finds which of a query's casts met the bad value
 */
public record CastExpr(PhysicalExpr input, ArrowType type, Optional<SqlPosition> position) implements PhysicalExpr {
    public CastExpr {
        requireNonNull(input, "input is null");
        requireNonNull(type, "type is null");
        requireNonNull(position, "position is null");
    }

    /** A cast the SQL text does not spell (a coercion), without a position. */
    public CastExpr(PhysicalExpr input, ArrowType type) {
        this(input, type, Optional.empty());
    }

    /** {@code expr} as {@code type}: unchanged when it already is, a NULL literal retyped, otherwise a cast. */
    public static PhysicalExpr to(PhysicalExpr expr, ArrowType type) {
        if (expr.type().equals(type)) {
            return expr;
        }
        if (expr instanceof LiteralExpr literal && literal.value() == null) {
            return new LiteralExpr(null, type);
        }
        return new CastExpr(expr, type);
    }

    @Override
    public boolean nullable() {
        return input.nullable();
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        try (Operand operand = Operand.evaluate(input, batch, allocator)) {
            return CastKernels.cast(operand, type, display(), batch.getRowCount(), allocator);
        } catch (QuiverException e) {
            if (position.isEmpty() || e.position().isPresent()) {
                throw e;
            }
            throw new QuiverException(e.errorCode(), e.getMessage() + " (at " + position.get() + ")", position.get(), e);
        }
    }

    @Override
    public List<PhysicalExpr> children() {
        return List.of(input);
    }

    @Override
    public String display() {
        return "CAST(" + input.display() + " AS " + QuiverTypes.sqlName(type) + ")";
    }
}
