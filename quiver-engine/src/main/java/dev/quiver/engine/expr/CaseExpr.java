package dev.quiver.engine.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.PlanChecks;
import dev.quiver.engine.expr.kernel.SelectionKernels;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Searched {@code CASE WHEN c1 THEN v1 ... ELSE e END}. A branch whose condition is NULL is not
 * taken; without ELSE the result is NULL. Branch values already have {@code type} (the SQL layer
 * casts them).
 */
public record CaseExpr(List<WhenThen> branches, Optional<PhysicalExpr> elseValue, ArrowType type) implements PhysicalExpr {
    public CaseExpr {
        branches = List.copyOf(requireNonNull(branches, "branches is null"));
        requireNonNull(elseValue, "elseValue is null");
        requireNonNull(type, "type is null");
        PlanChecks.checkArgument(!branches.isEmpty(), "CASE", "needs at least one WHEN branch");
    }

    /** One {@code WHEN condition THEN value} branch. */
    public record WhenThen(PhysicalExpr condition, PhysicalExpr value) {
        public WhenThen {
            requireNonNull(condition, "condition is null");
            requireNonNull(value, "value is null");
        }
    }

    @Override
    public boolean nullable() {
        return elseValue.map(PhysicalExpr::nullable).orElse(true) || branches.stream().anyMatch(b -> b.value().nullable());
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        return SelectionKernels.caseWhen(this, batch, allocator);
    }

    @Override
    public List<PhysicalExpr> children() {
        List<PhysicalExpr> children = new ArrayList<>();
        for (WhenThen branch : branches) {
            children.add(branch.condition());
            children.add(branch.value());
        }
        elseValue.ifPresent(children::add);
        return children;
    }

    @Override
    public String display() {
        StringBuilder text = new StringBuilder("CASE");
        for (WhenThen branch : branches) {
            text.append(" WHEN ").append(branch.condition().display()).append(" THEN ").append(branch.value().display());
        }
        elseValue.ifPresent(e -> text.append(" ELSE ").append(e.display()));
        return text.append(" END").toString();
    }
}
