package dev.quiver.sql.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mapping;
import org.apache.calcite.util.mapping.MappingType;
import org.apache.calcite.util.mapping.Mappings;

/**
 * Calcite's field trimmer, plus {@link LogicalUnnest}: of its input it needs only the fields used
 * above it and the lists it unnests (without this, a trimmer keeps every field below an operator it
 * does not know, and the scan under an UNNEST read every column). Calcite finds the method by
 * reflection on the argument's class, which is why the class is public.
 */
public final class UnnestFieldTrimmer extends RelFieldTrimmer {
    UnnestFieldTrimmer(RelBuilder relBuilder) {
        super(null, relBuilder);
    }

    public TrimResult trimFields(LogicalUnnest unnest, ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields) {
        int inputCount = unnest.getInput().getRowType().getFieldCount();
        int fieldCount = unnest.getRowType().getFieldCount();
        ImmutableBitSet inputUsed = fieldsUsed.intersect(ImmutableBitSet.range(inputCount)).union(ImmutableBitSet.of(unnest.lists()));
        TrimResult trimmed = trimChild(unnest, unnest.getInput(), inputUsed, extraFields);
        Mapping inputMapping = trimmed.right;
        List<Integer> lists = new ArrayList<>();
        for (int list : unnest.lists()) {
            lists.add(inputMapping.getTarget(list));
        }
        LogicalUnnest rebuilt = LogicalUnnest.create(trimmed.left, lists, unnest.elementNames());
        int newInputCount = trimmed.left.getRowType().getFieldCount();
        Mapping mapping = Mappings.create(MappingType.INVERSE_SURJECTION, fieldCount, newInputCount + unnest.lists().size());
        for (int i = 0; i < inputCount; i++) {
            int target = inputMapping.getTargetOpt(i);
            if (target >= 0) {
                mapping.set(i, target);
            }
        }
        for (int j = 0; j < unnest.lists().size(); j++) {
            mapping.set(inputCount + j, newInputCount + j);
        }
        return result(rebuilt, mapping);
    }
}
