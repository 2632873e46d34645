package dev.quiver.sql.planner;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Each input row once per element of its list fields {@code lists}, the lists side by side (padded
 * with NULLs to the longest; none for a row whose lists are all NULL or empty), as DuckDB's UNNEST:
 * the input's other fields followed by one element field per list (nullable when several lists are
 * padded). The lists themselves are not passed on: a row would carry its whole list once per element. {@link Unnests} makes it from
 * select-list {@code unnest(l)} calls and from {@code FROM t, UNNEST(t.l)}; the engine's
 * {@code UnnestExec} runs it. No rule moves filters or projections through it.
 */
public final class LogicalUnnest extends SingleRel {
    /** Row count per input row the cost model assumes (no statistics of list lengths). */
    private static final double ELEMENTS_PER_ROW = 4;

    private final List<Integer> lists;
    private final List<String> elementNames;

    LogicalUnnest(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<Integer> lists, List<String> elementNames) {
        super(cluster, traits, input);
        this.lists = List.copyOf(requireNonNull(lists, "lists is null"));
        this.elementNames = List.copyOf(requireNonNull(elementNames, "elementNames is null"));
        List<RelDataTypeField> fields = input.getRowType().getFieldList();
        if (this.lists.isEmpty() || this.lists.size() != this.elementNames.size()) {
            throw new IllegalArgumentException("one element name per list: " + lists + ", " + elementNames);
        }
        for (int list : this.lists) {
            if (list < 0 || list >= fields.size() || fields.get(list).getType().getSqlTypeName() != SqlTypeName.ARRAY) {
                throw new IllegalArgumentException("field " + list + " is not a list of " + input.getRowType());
            }
        }
    }

    static LogicalUnnest create(RelNode input, List<Integer> lists, List<String> elementNames) {
        return new LogicalUnnest(input.getCluster(), input.getTraitSet(), input, lists, elementNames);
    }

    /** The input fields that are unnested. */
    public List<Integer> lists() {
        return lists;
    }

    public List<String> elementNames() {
        return elementNames;
    }

    /** How many input fields it passes on (all but the lists), before the element fields. */
    public int passedFields() {
        return input.getRowType().getFieldCount() - lists.size();
    }

    @Override
    protected RelDataType deriveRowType() {
        RelDataTypeFactory types = getCluster().getTypeFactory();
        RelDataTypeFactory.Builder row = types.builder();
        List<String> used = new ArrayList<>();
        List<RelDataTypeField> inputFields = input.getRowType().getFieldList();
        for (int i = 0; i < inputFields.size(); i++) {
            if (!lists.contains(i)) {
                row.add(inputFields.get(i));
                used.add(inputFields.get(i).getName());
            }
        }
        for (int i = 0; i < lists.size(); i++) {
            RelDataType element = input.getRowType().getFieldList().get(lists.get(i)).getType().getComponentType();
            String name = elementNames.get(i);
            while (used.contains(name)) {
                name = name + "_";
            }
            used.add(name);
            // one list is never padded: its elements keep their nullability
            requireNonNull(element, "element type");
            row.add(name, lists.size() == 1 ? element : types.createTypeWithNullability(element, true));
        }
        return row.build();
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return mq.getRowCount(input) * ELEMENTS_PER_ROW;
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return planner.getCostFactory().makeCost(estimateRowCount(mq), 0, 0);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new LogicalUnnest(getCluster(), traitSet, sole(inputs), lists, elementNames);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("lists", lists);
    }
}
