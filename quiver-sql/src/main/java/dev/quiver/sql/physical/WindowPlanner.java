package dev.quiver.sql.physical;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.expr.function.ConditionalFunctions;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.exchange.SortPreservingMergeExec;
import dev.quiver.engine.operator.sort.SortExec;
import dev.quiver.engine.operator.sort.SortKey;
import dev.quiver.engine.operator.window.WindowExec;
import dev.quiver.engine.operator.window.WindowExpr;
import dev.quiver.engine.operator.window.WindowFrame;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.SqlKind;

/**
 * A Calcite {@link Window} as a chain of {@link WindowExec}s, one per window specification
 * ({@code PARTITION BY ... ORDER BY ...}); the window groups that differ only in their frames share
 * one. Below each, its input is made sorted and partitioned as the operator needs:
 *
 * <ul>
 * <li>with PARTITION BY: a hash repartition on the partition keys (which the distributed planner
 *     turns into a shuffle, sized like any other), then each partition sorted on the partition and
 *     order keys;</li>
 * <li>without: one partition — each input partition sorted and merged in order, or coalesced
 *     when there is no ORDER BY (the distributed planner makes it a one-task stage).</li>
 * </ul>
 *
 * Specifications are planned so that one sort serves several: those with the same partition keys
 * follow each other, longest ORDER BY first, and one whose ORDER BY is a prefix of the previous
 * one's needs no sort. A projection at the end puts the columns in Calcite's order, casts results
 * to Calcite's types and makes {@code $SUM0} (a SUM that is 0 over no rows) so.
 */
final class WindowPlanner {
    private WindowPlanner() {}

    /** One window specification and the expressions computed over it. */
    private record Spec(List<Integer> partitionKeys, List<RelFieldCollation> orderKeys, List<Output> outputs) {}

    /** One window call: its engine expression, its column in Calcite's row type, and whether it is $SUM0. */
    private record Output(WindowExpr expr, int field, boolean sumZero) {}

    static ExecutionPlan plan(Window window, ExecutionPlan input, RexTranslator inputs, int targetPartitions) {
        int inputFields = window.getInput().getRowType().getFieldCount();
        List<RexLiteral> constants = window.constants;
        List<RelDataTypeField> fields = window.getRowType().getFieldList();
        Map<List<Object>, Spec> specs = new LinkedHashMap<>();
        AggregateCalls aggregateCalls = new AggregateCalls(window.getInput(), inputs, constants);
        int field = inputFields;
        for (Window.Group group : window.groups) {
            List<Integer> partitionKeys = group.keys.asList();
            List<RelFieldCollation> orderKeys = group.orderKeys.getFieldCollations();
            Spec spec = specs.computeIfAbsent(List.of(partitionKeys, orderKeys), k -> new Spec(partitionKeys, orderKeys, new ArrayList<>()));
            WindowFrame frame = WindowFrames.of(group, inputFields, constants);
            List<AggregateCall> aggregates = group.getAggregateCalls(window);
            for (int c = 0; c < group.aggCalls.size(); c++) {
                Window.RexWinAggCall call = group.aggCalls.get(c);
                String name = fields.get(field).getName();
                var function = WindowFunctions.of(call, aggregateCalls::operand, aggregates.get(c), aggregateCalls, name);
                spec.outputs().add(new Output(new WindowExpr(function, frame, name), field, call.getOperator().getKind() == SqlKind.SUM0));
                field++;
            }
        }
        List<Spec> ordered = sortSharing(new ArrayList<>(specs.values()));
        ExecutionPlan plan = input;
        int[] columnOf = new int[fields.size()];
        for (int i = 0; i < inputFields; i++) {
            columnOf[i] = i;
        }
        Spec sortedBy = null;
        List<Integer> hashedOn = null;
        for (Spec spec : ordered) {
            if (!spec.partitionKeys().isEmpty() && plan.outputPartitioning().partitionCount() > 1
                    && !spec.partitionKeys().equals(hashedOn)) {
                plan = new RepartitionExec(plan, new Partitioning.Hash(columns(plan, spec.partitionKeys()), targetPartitions));
                hashedOn = spec.partitionKeys();
                sortedBy = null;
            }
            boolean sorted = sortedBy != null && sortedBy.partitionKeys().equals(spec.partitionKeys())
                    && isPrefix(spec.orderKeys(), sortedBy.orderKeys());
            if (spec.partitionKeys().isEmpty() && plan.outputPartitioning().partitionCount() > 1) {
                List<SortKey> keys = sortKeys(plan, spec);
                plan = keys.isEmpty() ? new CoalescePartitionsExec(plan)
                        : new SortPreservingMergeExec(new SortExec(plan, keys, OptionalLong.empty(), true), keys, OptionalLong.empty());
                sortedBy = spec;
            } else if (!sorted && !(spec.partitionKeys().isEmpty() && spec.orderKeys().isEmpty())) {
                plan = new SortExec(plan, sortKeys(plan, spec), OptionalLong.empty(), plan.outputPartitioning().partitionCount() > 1);
                sortedBy = spec;
            }
            plan = window(plan, spec, columnOf);
        }
        return finish(plan, window, specs.values(), columnOf);
    }

    /**
     * The specifications in an order that lets one sort serve several: grouped by partition keys
     * (in order of first appearance); within a group, the longest remaining ORDER BY, then every
     * remaining one that is a prefix of it, and again.
     */
    private static List<Spec> sortSharing(List<Spec> specs) {
        List<Spec> ordered = new ArrayList<>();
        while (!specs.isEmpty()) {
            List<Integer> keys = specs.get(0).partitionKeys();
            Spec longest = specs.stream().filter(s -> s.partitionKeys().equals(keys))
                    .max(Comparator.comparingInt((Spec s) -> s.orderKeys().size()).thenComparing(s -> -specs.indexOf(s))).orElseThrow();
            ordered.add(longest);
            specs.remove(longest);
            for (Spec spec : List.copyOf(specs)) {
                if (spec.partitionKeys().equals(keys) && isPrefix(spec.orderKeys(), longest.orderKeys())) {
                    ordered.add(spec);
                    specs.remove(spec);
                }
            }
        }
        return ordered;
    }

    private static ExecutionPlan window(ExecutionPlan input, Spec spec, int[] columnOf) {
        int first = input.schema().getFields().size();
        List<PhysicalExpr> partitionExprs = columns(input, spec.partitionKeys());
        List<SortKey> orderExprs = spec.orderKeys().stream().map(c -> SortPlanner.sortKey(c, input.schema())).toList();
        for (int o = 0; o < spec.outputs().size(); o++) {
            columnOf[spec.outputs().get(o).field()] = first + o;
        }
        return new WindowExec(input, partitionExprs, orderExprs, spec.outputs().stream().map(Output::expr).toList());
    }

    private static boolean isPrefix(List<RelFieldCollation> prefix, List<RelFieldCollation> keys) {
        return prefix.size() <= keys.size() && keys.subList(0, prefix.size()).equals(prefix);
    }

    private static List<PhysicalExpr> columns(ExecutionPlan plan, List<Integer> indexes) {
        return indexes.stream().map(i -> (PhysicalExpr) RexTranslator.column(plan.schema(), i)).toList();
    }

    /** The partition keys (any direction: only equality matters), then the ORDER BY keys. */
    private static List<SortKey> sortKeys(ExecutionPlan plan, Spec spec) {
        List<SortKey> keys = new ArrayList<>();
        for (int key : spec.partitionKeys()) {
            keys.add(new SortKey(RexTranslator.column(plan.schema(), key), true, true));
        }
        for (RelFieldCollation collation : spec.orderKeys()) {
            keys.add(SortPlanner.sortKey(collation, plan.schema()));
        }
        return keys;
    }

    /** The window's columns in Calcite's order and types. */
    private static ExecutionPlan finish(ExecutionPlan plan, Window window, Iterable<Spec> specs, int[] columnOf) {
        List<RelDataTypeField> fields = window.getRowType().getFieldList();
        boolean[] sumZero = new boolean[fields.size()];
        for (Spec spec : specs) {
            spec.outputs().forEach(output -> sumZero[output.field()] = output.sumZero());
        }
        List<PhysicalExpr> exprs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            ArrowType type = TypeMapping.toArrow(fields.get(i).getType());
            PhysicalExpr column = RexTranslator.castTo(RexTranslator.column(plan.schema(), columnOf[i]), type);
            if (sumZero[i]) {
                column = ConditionalFunctions.COALESCE.call(List.of(column, new LiteralExpr(Literals.zero(type), type)), type);
            }
            exprs.add(column);
            names.add(fields.get(i).getName());
        }
        return PhysicalPlanner.projection(exprs, names, plan);
    }
}
