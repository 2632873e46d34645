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
        List<Integer> passed = passedFields(inputCount, unnest.lists());
        ImmutableBitSet.Builder inputUsed = ImmutableBitSet.builder().addAll(unnest.lists());
        for (int k = 0; k < passed.size(); k++) {
            if (fieldsUsed.get(k)) {
                inputUsed.set(passed.get(k));
            }
        }
        TrimResult trimmed = trimChild(unnest, unnest.getInput(), inputUsed.build(), extraFields);
        Mapping inputMapping = trimmed.right;
        List<Integer> lists = new ArrayList<>();
        for (int list : unnest.lists()) {
            lists.add(inputMapping.getTarget(list));
        }
        LogicalUnnest rebuilt = LogicalUnnest.create(trimmed.left, lists, unnest.elementNames());
        List<Integer> newPassed = passedFields(trimmed.left.getRowType().getFieldCount(), lists);
        Mapping mapping = Mappings.create(MappingType.INVERSE_SURJECTION, unnest.getRowType().getFieldCount(), rebuilt.getRowType().getFieldCount());
        for (int k = 0; k < passed.size(); k++) {
            int target = inputMapping.getTargetOpt(passed.get(k));
            if (target >= 0) {
                mapping.set(k, newPassed.indexOf(target));
            }
        }
        for (int j = 0; j < lists.size(); j++) {
            mapping.set(passed.size() + j, newPassed.size() + j);
        }
        return result(rebuilt, mapping);
    }

    /** The input fields an unnest passes on (all but its lists), in order. */
    private static List<Integer> passedFields(int inputCount, List<Integer> lists) {
        List<Integer> passed = new ArrayList<>();
        for (int i = 0; i < inputCount; i++) {
            if (!lists.contains(i)) {
                passed.add(i);
            }
        }
        return passed;
    }
}
