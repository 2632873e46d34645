package dev.quiver.engine.expr;

import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A scalar expression over the columns of a batch, evaluated a batch at a time.
 *
 * <p>Expressions are immutable records, so plans that hold them can be serialized. Evaluation uses
 * type-specialised loops over Arrow buffers: no boxing or allocation per row on hot paths.
 * Decimals compute on unscaled {@code long} values (two longs above precision 18), never on a
 * {@code BigDecimal} per row. SQL NULL semantics hold throughout (three-valued logic for
 * {@code AND}/{@code OR}; NULL in, NULL out elsewhere). Arithmetic that overflows its result type
 * or divides by zero throws {@link dev.quiver.engine.error.QuiverException} with
 * {@code NUMERIC_VALUE_OUT_OF_RANGE} or {@code DIVISION_BY_ZERO}, never a wrong number.
 */
public interface PhysicalExpr {
    /** The type of the result. */
    ArrowType type();

    /** Whether the result may contain nulls. */
    boolean nullable();

    /**
     * Evaluates over {@code batch}, returning a new vector of {@code batch.getRowCount()} values
     * allocated from {@code allocator}; the caller owns and closes it.
     */
    FieldVector evaluate(VectorSchemaRoot batch, org.apache.arrow.memory.BufferAllocator allocator);

    List<PhysicalExpr> children();

    /** SQL-like text for plan display, e.g. {@code l_quantity@4 < 24}. */
    String display();
}
