package dev.quiver.sql.physical;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The value of a scalar subquery's {@code SINGLE_VALUE} aggregate: {@code value} when the group
 * had at most one row ({@code rowCount} &le; 1), else the query fails with
 * {@code SUBQUERY_MULTIPLE_ROWS}, as SQL requires of a scalar subquery.
 */
public record AtMostOneRowExpr(PhysicalExpr rowCount, PhysicalExpr value) implements PhysicalExpr {
    public AtMostOneRowExpr {
        requireNonNull(rowCount, "rowCount is null");
        requireNonNull(value, "value is null");
    }

    @Override
    public ArrowType type() {
        return value.type();
    }

    @Override
    public boolean nullable() {
        return true;
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        try (FieldVector counts = rowCount.evaluate(batch, allocator)) {
            BigIntVector count = (BigIntVector) counts;
            for (int i = 0; i < batch.getRowCount(); i++) {
                if (!count.isNull(i) && count.get(i) > 1) {
                    throw new QuiverException(ErrorCode.SUBQUERY_MULTIPLE_ROWS,
                            "A scalar subquery returned " + count.get(i) + " rows; it may return at most one");
                }
            }
        }
        return value.evaluate(batch, allocator);
    }

    @Override
    public List<PhysicalExpr> children() {
        return List.of(rowCount, value);
    }

    @Override
    public String display() {
        return "at_most_one_row(" + rowCount.display() + ", " + value.display() + ")";
    }
}
