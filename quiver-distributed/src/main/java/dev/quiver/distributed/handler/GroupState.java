package dev.quiver.distributed.handler;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.IntFunction;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * What a grouped aggregate holds, as {@link AggregateMemorySizingHandler} models it
 * ({@link GroupStateWidth}): {@code groups} groups of {@code bytesPerGroup} bytes per slot of
 * capacity plus {@code stringBytesPerGroup} of key strings each, and for each DISTINCT aggregate
 * (SINGLE mode: {@code COUNT(DISTINCT x) ... GROUP BY k}) the distinct {@code (group, value)} pairs
 * it keeps.
 */
record GroupState(long groups, long bytesPerGroup, double stringBytesPerGroup, List<Pairs> distinct) {
    /** The seen pairs of one DISTINCT aggregate. */
    record Pairs(long pairs, long bytesPerPair, double stringBytesPerPair) {}

    GroupState {
        distinct = List.copyOf(requireNonNull(distinct, "distinct is null"));
    }

    /**
     * The state of {@code aggregate} with {@code groups} groups over {@code rows} input rows whose
     * strings take {@code stringBytes} each; {@code distinctValues} gives the distinct count of an
     * input column when known. A DISTINCT aggregate's pairs are at most the rows and at most the
     * groups times its argument's distinct values.
     */
    static GroupState of(HashAggregateExec aggregate, long groups, long rows, double stringBytes, IntFunction<OptionalLong> distinctValues) {
        List<ArrowType> keyTypes = aggregate.groupExprs().stream().map(PhysicalExpr::type).toList();
        long bytesPerGroup = GroupStateWidth.bytesPerGroup(keyTypes, aggregate.aggregates(), stringBytes);
        double strings = GroupStateWidth.stringKeys(keyTypes) * stringBytes;
        List<Pairs> pairs = new ArrayList<>();
        for (AggregateExpr expr : aggregate.aggregates()) {
            if (!expr.distinct() || expr.args().isEmpty()) {
                continue;
            }
            PhysicalExpr arg = expr.args().get(0);
            OptionalLong values = arg instanceof ColumnExpr column ? distinctValues.apply(column.index()) : OptionalLong.empty();
            long seen = Math.max(groups, values.isPresent() ? Math.min(rows, saturatedProduct(groups, values.getAsLong())) : rows);
            double valueStrings = arg.type() instanceof ArrowType.Utf8 ? stringBytes : 0;
            pairs.add(new Pairs(seen, GroupStateWidth.bytesPerPair(arg.type()), valueStrings));
        }
        return new GroupState(groups, bytesPerGroup, strings, pairs);
    }

    /**
     * One consumer task's peak state: {@code partitions} tables, each holding its share of
     * {@code safety × groups} (and of each DISTINCT aggregate's pairs) at the engine's power-of-two
     * capacity, plus their strings in arenas.
     */
    long taskBytes(double safety, int tasks, int partitions) {
        long slots = (long) tasks * partitions;
        long perPartition = ceilDiv((long) Math.ceil(safety * groups), slots);
        double bytes = bytesPerGroup * GroupStateWidth.capacityFor(perPartition) + arena(stringBytesPerGroup * perPartition);
        for (Pairs pair : distinct) {
            long perPartitionPairs = ceilDiv((long) Math.ceil(safety * pair.pairs()), slots);
            bytes += pair.bytesPerPair() * GroupStateWidth.capacityFor(perPartitionPairs) + arena(pair.stringBytesPerPair() * perPartitionPairs);
        }
        return (long) Math.ceil(partitions * bytes);
    }

    /** Bytes per group averaged over what one group brings (for messages): its slot, its strings and its share of the pairs. */
    long averageBytesPerGroup() {
        double bytes = bytesPerGroup + stringBytesPerGroup * GroupStateWidth.ARENA_FACTOR;
        for (Pairs pair : distinct) {
            bytes += (pair.bytesPerPair() + pair.stringBytesPerPair() * GroupStateWidth.ARENA_FACTOR) * pair.pairs() / (double) Math.max(1, groups);
        }
        return (long) Math.ceil(bytes);
    }

    private static double arena(double stringBytes) {
        return stringBytes * GroupStateWidth.ARENA_FACTOR;
    }

    private static long saturatedProduct(long a, long b) {
        long product = a * b;
        return a != 0 && product / a != b ? Long.MAX_VALUE : product;
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }
}
