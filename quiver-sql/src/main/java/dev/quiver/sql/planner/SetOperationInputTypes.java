package dev.quiver.sql.planner;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.type.RelDataType;

/**
 * Gives every input of a UNION, INTERSECT or EXCEPT exactly the operation's column types, by a
 * cast where they differ. The converter leaves inputs of compatible but different types
 * ({@code CHAR(0)} beside {@code VARCHAR}, {@code NOT NULL} beside nullable), and Calcite's
 * predicate pull-up over an INTERSECT checks the inputs' predicates against the operation's row
 * type, which fails an assertion ("type mismatch") while constants are folded.
 */
final class SetOperationInputTypes extends RelHomogeneousShuttle {
    private SetOperationInputTypes() {}

    static RelNode apply(RelNode rel) {
        return rel.accept(new SetOperationInputTypes());
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode node = super.visit(other);
        if (!(node instanceof SetOp setOp)) {
            return node;
        }
        RelDataType target = setOp.getRowType();
        List<RelNode> inputs = new ArrayList<>();
        boolean changed = false;
        for (RelNode input : setOp.getInputs()) {
            if (RelOptUtil.areRowTypesEqual(input.getRowType(), target, false)) {
                inputs.add(input);
            } else {
                inputs.add(RelOptUtil.createCastRel(input, target, false));
                changed = true;
            }
        }
        return changed ? setOp.copy(setOp.getTraitSet(), inputs) : setOp;
    }
}
