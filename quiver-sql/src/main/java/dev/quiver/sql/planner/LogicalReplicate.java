package dev.quiver.sql.planner;

import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Each input row as many times as its last field says (a BIGINT), without that field: how Quiver
 * plans {@code INTERSECT ALL} and {@code EXCEPT ALL} (see {@link SetOperationsAll}). The engine's
 * {@code ReplicateRowsExec} runs it.
 */
public final class LogicalReplicate extends SingleRel {
    LogicalReplicate(RelOptCluster cluster, RelTraitSet traits, RelNode input) {
        super(cluster, traits, input);
        List<RelDataTypeField> fields = input.getRowType().getFieldList();
        if (fields.size() < 2 || fields.get(fields.size() - 1).getType().getSqlTypeName() != SqlTypeName.BIGINT) {
            throw new IllegalArgumentException("the last field must be a BIGINT count: " + input.getRowType());
        }
    }

    static LogicalReplicate create(RelNode input) {
        return new LogicalReplicate(input.getCluster(), input.getTraitSet(), input);
    }

    @Override
    protected RelDataType deriveRowType() {
        List<RelDataTypeField> fields = input.getRowType().getFieldList();
        return getCluster().getTypeFactory().createStructType(fields.subList(0, fields.size() - 1));
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new LogicalReplicate(getCluster(), traitSet, sole(inputs));
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("times", input.getRowType().getFieldNames().get(input.getRowType().getFieldCount() - 1));
    }
}
