package dev.quiver.sql.physical;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.CaseExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.aggregate.ExpandExec;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * The group keys an aggregate is computed on: for a plain GROUP BY its keys over its input; for
 * GROUPING SETS, ROLLUP and CUBE the keys of an {@link ExpandExec} over the input plus the
 * grouping set's ordinal ({@code $grouping_set}), with the seed flag that makes an empty grouping
 * set yield its row over empty input.
 */
final class GroupingSets {
    private GroupingSets() {}

    /**
     * @param input the plan the aggregate reads (the input, or the expansion of it)
     * @param exprs the group expressions over {@code input}
     * @param names their output names
     * @param groupingSet the position of {@code $grouping_set} among the group expressions, -1 for a plain GROUP BY
     * @param sets per grouping set, the input columns it groups by (one set for a plain GROUP BY)
     */
    record Keys(ExecutionPlan input, List<PhysicalExpr> exprs, List<String> names, int groupingSet, Optional<PhysicalExpr> seedFlag,
            List<ImmutableBitSet> sets) {
        Keys {
            requireNonNull(input, "input is null");
            exprs = List.copyOf(exprs);
            names = List.copyOf(names);
            requireNonNull(seedFlag, "seedFlag is null");
            sets = List.copyOf(sets);
        }

        /** {@code GROUPING(args)}: per grouping set, a bit per argument (the first the highest), 1 where the set lacks it. */
        Grouping grouping(List<Integer> args, String name) {
            if (args.size() > Long.SIZE - 1) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "GROUPING takes at most " + (Long.SIZE - 1) + " arguments");
            }
            long[] values = new long[sets.size()];
            for (int s = 0; s < sets.size(); s++) {
                for (int arg : args) {
                    values[s] = values[s] << 1 | (sets.get(s).get(arg) ? 0 : 1);
                }
            }
            return new Grouping(values);
        }
    }

    /** GROUPING(...)'s value per grouping set. */
    record Grouping(long[] values) {
        /** The value for the row's grouping set, given the {@code $grouping_set} column (absent for a plain GROUP BY). */
        PhysicalExpr expr(PhysicalExpr ordinal) {
            List<CaseExpr.WhenThen> branches = new ArrayList<>();
            for (int s = 0; s < values.length - 1; s++) {
                PhysicalExpr isSet = new BinaryExpr(BinaryOperator.EQ, ordinal, new LiteralExpr((long) s, QuiverTypes.INT64), QuiverTypes.BOOLEAN);
                branches.add(new CaseExpr.WhenThen(isSet, value(s)));
            }
            PhysicalExpr last = value(values.length - 1);
            return branches.isEmpty() ? last : new CaseExpr(branches, Optional.of(last), QuiverTypes.INT64);
        }

        private LiteralExpr value(int set) {
            return new LiteralExpr(values[set], QuiverTypes.INT64);
        }
    }

    static Keys simple(Aggregate aggregate, ExecutionPlan input, RexTranslator inputs, List<String> fieldNames) {
        List<PhysicalExpr> exprs = new ArrayList<>();
        for (int key : aggregate.getGroupSet()) {
            exprs.add(inputs.column(key));
        }
        return new Keys(input, exprs, fieldNames.subList(0, exprs.size()), -1, Optional.empty(), List.of(aggregate.getGroupSet()));
    }

    /** The expansion of {@code input} by the aggregate's grouping sets, and the keys over it. */
    static Keys expand(Aggregate aggregate, ExecutionPlan input, RexTranslator inputs, List<String> fieldNames) {
        ImmutableBitSet groupSet = aggregate.getGroupSet();
        List<PhysicalExpr> keys = new ArrayList<>();
        for (int key : groupSet) {
            keys.add(inputs.column(key));
        }
        List<String> keyNames = fieldNames.subList(0, keys.size());
        List<List<Integer>> sets = new ArrayList<>();
        for (ImmutableBitSet set : aggregate.getGroupSets()) {
            List<Integer> positions = new ArrayList<>();
            for (int key : set) {
                positions.add(groupSet.indexOf(key));
            }
            sets.add(positions);
        }
        ExpandExec expand = new ExpandExec(input, keys, keyNames, sets);
        int first = input.schema().getFields().size();
        List<PhysicalExpr> exprs = new ArrayList<>();
        for (int k = 0; k <= keys.size(); k++) {
            exprs.add(RexTranslator.column(expand.schema(), first + k));
        }
        List<String> names = new ArrayList<>(keyNames);
        names.add(ExpandExec.GROUPING_SET);
        Optional<PhysicalExpr> seed = expand.hasSeed()
                ? Optional.of(RexTranslator.column(expand.schema(), first + keys.size() + 1))
                : Optional.empty();
        return new Keys(expand, exprs, names, keys.size(), seed, aggregate.getGroupSets());
    }
}
