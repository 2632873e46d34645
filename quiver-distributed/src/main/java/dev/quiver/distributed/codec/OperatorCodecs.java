package dev.quiver.distributed.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.distributed.codec.spi.DecodeContext;
import dev.quiver.distributed.codec.spi.EncodeContext;
import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.FilterExec;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.operator.UnionExec;
import dev.quiver.engine.operator.ValuesExec;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateFunction;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.ExpandExec;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.exchange.SortPreservingMergeExec;
import dev.quiver.engine.operator.join.HashJoinExec;
import dev.quiver.engine.operator.join.JoinType;
import dev.quiver.engine.operator.join.NestedLoopJoinExec;
import dev.quiver.engine.operator.join.PartitionMode;
import dev.quiver.engine.operator.limit.GlobalLimitExec;
import dev.quiver.engine.operator.limit.LocalLimitExec;
import dev.quiver.engine.operator.sort.SortExec;
import dev.quiver.engine.operator.sort.SortKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** Codecs of the engine's operators (every {@code ExecutionPlan} that is not a leaf scan). */
final class OperatorCodecs {
    private OperatorCodecs() {}

    static List<PlanNodeCodec<?>> all() {
        List<PlanNodeCodec<?>> all = new ArrayList<>(relational());
        all.addAll(exchangesAndSorts());
        all.addAll(aggregatesAndJoins());
        all.addAll(RowSetCodecs.all());
        all.addAll(WindowCodecs.all());
        return all;
    }

    private static List<PlanNodeCodec<?>> relational() {
        return List.of(
                PlanNodeCodec.of("FilterExec", FilterExec.class,
                        (n, out, c) -> out.set("predicate", c.expr(n.predicate())),
                        (in, children, c) -> new FilterExec(c.expr(c.required(in, "predicate")), only(children, "FilterExec"))),
                PlanNodeCodec.of("ProjectionExec", ProjectionExec.class,
                        (n, out, c) -> {
                            out.set("exprs", c.exprs(n.exprs()));
                            out.set("names", strings(n.names(), c));
                        },
                        (in, children, c) -> new ProjectionExec(c.exprs(c.required(in, "exprs")), strings(c.required(in, "names")),
                                only(children, "ProjectionExec"))),
                PlanNodeCodec.of("UnionExec", UnionExec.class,
                        (n, out, c) -> { },
                        (in, children, c) -> new UnionExec(children)),
                PlanNodeCodec.of("ValuesExec", ValuesExec.class,
                        (n, out, c) -> {
                            out.set("schema", c.schema(n.schema()));
                            out.set("rows", rows(n.rows(), c));
                        },
                        (in, children, c) -> {
                            none(children, "ValuesExec");
                            return new ValuesExec(c.schema(c.required(in, "schema")), rows(c.required(in, "rows"), c));
                        }),
                PlanNodeCodec.of("GlobalLimitExec", GlobalLimitExec.class,
                        (n, out, c) -> {
                            out.put("skip", n.skip());
                            n.fetch().ifPresent(fetch -> out.put("fetch", fetch));
                        },
                        (in, children, c) -> new GlobalLimitExec(only(children, "GlobalLimitExec"), c.requiredLong(in, "skip"), fetch(in, c))),
                PlanNodeCodec.of("LocalLimitExec", LocalLimitExec.class,
                        (n, out, c) -> out.put("fetch", n.fetch()),
                        (in, children, c) -> new LocalLimitExec(only(children, "LocalLimitExec"), c.requiredLong(in, "fetch"))));
    }

    private static List<PlanNodeCodec<?>> exchangesAndSorts() {
        return List.of(
                PlanNodeCodec.of("CoalescePartitionsExec", CoalescePartitionsExec.class,
                        (n, out, c) -> { },
                        (in, children, c) -> new CoalescePartitionsExec(only(children, "CoalescePartitionsExec"))),
                PlanNodeCodec.of("RepartitionExec", RepartitionExec.class,
                        (n, out, c) -> out.set("partitioning", c.partitioning(n.outputPartitioning())),
                        (in, children, c) -> new RepartitionExec(only(children, "RepartitionExec"), c.partitioning(c.required(in, "partitioning")))),
                PlanNodeCodec.of("SortPreservingMergeExec", SortPreservingMergeExec.class,
                        (n, out, c) -> {
                            out.set("keys", sortKeys(n.keys(), c));
                            n.fetch().ifPresent(fetch -> out.put("fetch", fetch));
                        },
                        (in, children, c) -> new SortPreservingMergeExec(only(children, "SortPreservingMergeExec"),
                                sortKeys(c.required(in, "keys"), c), fetch(in, c))),
                PlanNodeCodec.of("SortExec", SortExec.class,
                        (n, out, c) -> {
                            out.set("keys", sortKeys(n.keys(), c));
                            n.fetch().ifPresent(fetch -> out.put("fetch", fetch));
                            out.put("preservePartitioning", n.preservePartitioning());
                        },
                        (in, children, c) -> new SortExec(only(children, "SortExec"), sortKeys(c.required(in, "keys"), c), fetch(in, c),
                                c.requiredBoolean(in, "preservePartitioning"))));
    }

    private static List<PlanNodeCodec<?>> aggregatesAndJoins() {
        return List.of(
                PlanNodeCodec.of("HashAggregateExec", HashAggregateExec.class,
                        (n, out, c) -> {
                            out.put("mode", n.mode().name());
                            out.set("groupExprs", c.exprs(n.groupExprs()));
                            out.set("groupNames", strings(n.groupNames(), c));
                            out.set("aggregates", aggregates(n.aggregates(), c));
                            n.seedFlag().ifPresent(flag -> out.set("seedFlag", c.expr(flag)));
                        },
                        (in, children, c) -> new HashAggregateExec(BuiltinExprCodecs.enumValue(AggregateMode.class, c.requiredText(in, "mode")),
                                c.exprs(c.required(in, "groupExprs")), strings(c.required(in, "groupNames")),
                                aggregates(c.required(in, "aggregates"), c), only(children, "HashAggregateExec"),
                                in.has("seedFlag") ? Optional.of(c.expr(in.get("seedFlag"))) : Optional.empty())),
                PlanNodeCodec.of("ExpandExec", ExpandExec.class,
                        (n, out, c) -> {
                            out.set("keys", c.exprs(n.keys()));
                            out.set("keyNames", strings(n.keyNames(), c));
                            ArrayNode sets = out.putArray("groupingSets");
                            for (List<Integer> set : n.groupingSets()) {
                                ArrayNode positions = sets.addArray();
                                set.forEach(positions::add);
                            }
                        },
                        (in, children, c) -> new ExpandExec(only(children, "ExpandExec"), c.exprs(c.required(in, "keys")),
                                strings(c.required(in, "keyNames")), groupingSets(c.required(in, "groupingSets")))),
                PlanNodeCodec.of("HashJoinExec", HashJoinExec.class,
                        (n, out, c) -> {
                            out.set("leftKeys", c.exprs(n.leftKeys()));
                            out.set("rightKeys", c.exprs(n.rightKeys()));
                            out.put("joinType", n.joinType().name());
                            n.filter().ifPresent(filter -> out.set("filter", c.expr(filter)));
                            out.put("mode", n.mode().name());
                        },
                        (in, children, c) -> {
                            checkCount(children, 2, "HashJoinExec");
                            return new HashJoinExec(children.get(0), children.get(1), c.exprs(c.required(in, "leftKeys")),
                                    c.exprs(c.required(in, "rightKeys")), BuiltinExprCodecs.enumValue(JoinType.class, c.requiredText(in, "joinType")),
                                    filter(in, c), BuiltinExprCodecs.enumValue(PartitionMode.class, c.requiredText(in, "mode")));
                        }),
                PlanNodeCodec.of("NestedLoopJoinExec", NestedLoopJoinExec.class,
                        (n, out, c) -> {
                            out.put("joinType", n.joinType().name());
                            n.filter().ifPresent(filter -> out.set("filter", c.expr(filter)));
                        },
                        (in, children, c) -> {
                            checkCount(children, 2, "NestedLoopJoinExec");
                            return new NestedLoopJoinExec(children.get(0), children.get(1),
                                    BuiltinExprCodecs.enumValue(JoinType.class, c.requiredText(in, "joinType")), filter(in, c));
                        }));
    }

    static ExecutionPlan only(List<ExecutionPlan> children, String node) {
        checkCount(children, 1, node);
        return children.get(0);
    }

    static void none(List<ExecutionPlan> children, String node) {
        checkCount(children, 0, node);
    }

    private static void checkCount(List<ExecutionPlan> children, int expected, String node) {
        if (children.size() != expected) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, node + " takes " + expected + " children; the serialized plan has " + children.size());
        }
    }

    private static OptionalLong fetch(JsonNode in, DecodeContext c) {
        return in.has("fetch") ? OptionalLong.of(c.requiredLong(in, "fetch")) : OptionalLong.empty();
    }

    private static Optional<PhysicalExpr> filter(JsonNode in, DecodeContext c) {
        return in.has("filter") ? Optional.of(c.expr(in.get("filter"))) : Optional.empty();
    }

    static ArrayNode strings(List<String> strings, EncodeContext c) {
        ArrayNode array = c.arrayNode();
        strings.forEach(array::add);
        return array;
    }

    static List<String> strings(JsonNode json) {
        List<String> strings = new ArrayList<>();
        for (JsonNode element : json) {
            if (!element.isTextual()) {
                throw new QuiverException(ErrorCode.PLAN_ERROR, "expected a string in the serialized plan, got " + element);
            }
            strings.add(element.textValue());
        }
        return strings;
    }

    static ArrayNode rows(List<List<Object>> rows, EncodeContext c) {
        ArrayNode array = c.arrayNode();
        for (List<Object> row : rows) {
            array.add(c.values(row));
        }
        return array;
    }

    static List<List<Object>> rows(JsonNode json, DecodeContext c) {
        List<List<Object>> rows = new ArrayList<>();
        for (JsonNode row : json) {
            rows.add(c.values(row));
        }
        return rows;
    }

    static ArrayNode sortKeys(List<SortKey> keys, EncodeContext c) {
        ArrayNode array = c.arrayNode();
        for (SortKey key : keys) {
            ObjectNode out = array.addObject();
            out.set("expr", c.expr(key.expr()));
            out.put("ascending", key.ascending()).put("nullsFirst", key.nullsFirst());
        }
        return array;
    }

    static List<SortKey> sortKeys(JsonNode json, DecodeContext c) {
        List<SortKey> keys = new ArrayList<>();
        for (JsonNode key : json) {
            keys.add(new SortKey(c.expr(c.required(key, "expr")), c.requiredBoolean(key, "ascending"), c.requiredBoolean(key, "nullsFirst")));
        }
        return keys;
    }

    static ArrayNode aggregates(List<AggregateExpr> aggregates, EncodeContext c) {
        ArrayNode array = c.arrayNode();
        for (AggregateExpr aggregate : aggregates) {
            array.add(aggregate(aggregate, c));
        }
        return array;
    }

    private static List<List<Integer>> groupingSets(JsonNode json) {
        List<List<Integer>> sets = new ArrayList<>();
        for (JsonNode set : json) {
            List<Integer> positions = new ArrayList<>();
            for (JsonNode position : set) {
                if (!position.isInt()) {
                    throw new QuiverException(ErrorCode.PLAN_ERROR, "expected a key position in a grouping set, got " + position);
                }
                positions.add(position.intValue());
            }
            sets.add(positions);
        }
        return sets;
    }

    /** One aggregate call (also inside a window expression). */
    static ObjectNode aggregate(AggregateExpr aggregate, EncodeContext c) {
        ObjectNode out = c.objectNode();
        out.put("function", aggregate.function().name());
        out.set("args", c.exprs(aggregate.args()));
        out.put("distinct", aggregate.distinct()).put("name", aggregate.name());
        out.set("dataType", c.type(aggregate.type()));
        if (!aggregate.orderBy().isEmpty()) {
            out.set("orderBy", sortKeys(aggregate.orderBy(), c));
        }
        if (!aggregate.parameters().isEmpty()) {
            out.set("parameters", c.values(aggregate.parameters()));
        }
        return out;
    }

    static List<AggregateExpr> aggregates(JsonNode json, DecodeContext c) {
        List<AggregateExpr> aggregates = new ArrayList<>();
        for (JsonNode in : json) {
            aggregates.add(aggregate(in, c));
        }
        return aggregates;
    }

    static AggregateExpr aggregate(JsonNode in, DecodeContext c) {
        return new AggregateExpr(BuiltinExprCodecs.enumValue(AggregateFunction.class, c.requiredText(in, "function")),
                c.exprs(c.required(in, "args")), c.requiredBoolean(in, "distinct"), c.requiredText(in, "name"),
                c.type(c.required(in, "dataType")), in.has("orderBy") ? sortKeys(in.get("orderBy"), c) : List.of(),
                in.has("parameters") ? c.values(in.get("parameters")) : List.of());
    }
}
