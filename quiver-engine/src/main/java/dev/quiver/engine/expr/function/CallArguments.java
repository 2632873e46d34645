package dev.quiver.engine.expr.function;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.expr.kernel.Operand;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The arguments of one evaluation of a call over a batch. An argument is evaluated when a kernel
 * first asks for its {@link #operand}, so kernels that choose between arguments row by row
 * ({@code coalesce}, {@code if}) can evaluate them on the rows that need them only, through
 * {@link #expr} and {@link #batch}. Closing releases every operand evaluated.
 */
public final class CallArguments implements AutoCloseable {
    private final CallSite site;
    private final VectorSchemaRoot batch;
    private final BufferAllocator allocator;
    private final Operand[] operands;

    CallArguments(CallSite site, VectorSchemaRoot batch, BufferAllocator allocator) {
        this.site = requireNonNull(site, "site is null");
        this.batch = requireNonNull(batch, "batch is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.operands = new Operand[site.args().size()];
    }

    public int size() {
        return operands.length;
    }

    public int rows() {
        return batch.getRowCount();
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    public VectorSchemaRoot batch() {
        return batch;
    }

    public ArrowType resultType() {
        return site.resultType();
    }

    /** The call's text, for error messages. */
    public String display() {
        return site.display();
    }

    public PhysicalExpr expr(int index) {
        return site.args().get(index);
    }

    public List<PhysicalExpr> exprs() {
        return site.args();
    }

    /** Argument {@code index} evaluated over the batch (a literal stays a constant). */
    public Operand operand(int index) {
        if (operands[index] == null) {
            operands[index] = Operand.evaluate(site.args().get(index), batch, allocator);
        }
        return operands[index];
    }

    @Override
    public void close() {
        for (Operand operand : operands) {
            if (operand != null) {
                operand.close();
            }
        }
    }
}
