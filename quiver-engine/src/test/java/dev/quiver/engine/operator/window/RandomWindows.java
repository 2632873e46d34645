package dev.quiver.engine.operator.window;

import static dev.quiver.engine.operator.window.WindowTestData.column;

import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateFunction;
import dev.quiver.engine.operator.sort.SortKey;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Random window expressions over {@link WindowTestData}'s table, each as a Quiver {@link WindowExec}
 * specification and as the DuckDB SQL that computes the same thing. Functions whose result depends
 * on the order of rows within a peer group (ROW_NUMBER, LAG, FIRST_VALUE, ROWS frames, ...) get the
 * unique {@code id} as a last ORDER BY key, so that both engines see one order.
 */
final class RandomWindows {
    /** One window expression over one window specification. */
    record Case(List<PhysicalExpr> partitionKeys, List<SortKey> orderKeys, WindowExpr expr, String duckdb) {
        String describe() {
            return duckdb;
        }
    }

    private record Order(String column, boolean ascending, boolean nullsFirst) {
        SortKey key() {
            return new SortKey(WindowTestData.column(column), ascending, nullsFirst);
        }

        String sql() {
            return column + (ascending ? " ASC" : " DESC") + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
        }
    }

    private record Function(WindowFunction function, String sql, boolean orderSensitive, boolean usesFrame) {}

    private final Random random;

    RandomWindows(long seed) {
        this.random = new Random(seed);
    }

    Case next() {
        List<String> partition = pick(List.of("p", "s"), random.nextInt(3));
        Function function = function();
        boolean rangeOffsets = function.usesFrame() && !function.orderSensitive() && random.nextInt(3) == 0;
        List<Order> order = new ArrayList<>();
        if (rangeOffsets) {
            order.add(order(pick(List.of("o", "d", "m", "f", "ts"), 1).get(0)));
        } else {
            for (String name : pick(List.of("o", "d", "x", "s"), random.nextInt(3))) {
                order.add(order(name));
            }
        }
        WindowFrame frame = function.usesFrame() ? frame(order, rangeOffsets, function.orderSensitive()) : WindowFrame.DEFAULT_WITH_ORDER;
        boolean rowsFrame = function.usesFrame() && frame.units() == WindowFrame.Units.ROWS;
        if (!rangeOffsets && (function.orderSensitive() || rowsFrame || random.nextInt(4) == 0)) {
            order.add(new Order("id", random.nextBoolean(), false));
        }
        String frameSql = function.usesFrame() ? frameSql(frame, order) : "";
        StringBuilder over = new StringBuilder();
        if (!partition.isEmpty()) {
            over.append("PARTITION BY ").append(String.join(", ", partition));
        }
        if (!order.isEmpty()) {
            over.append(over.length() == 0 ? "" : " ").append("ORDER BY ").append(String.join(", ", order.stream().map(Order::sql).toList()));
        }
        over.append(frameSql);
        String sql = function.sql() + " OVER (" + over + ")";
        if (function.usesFrame() && frameSql.isEmpty()) {
            frame = order.isEmpty() ? WindowFrame.WHOLE_PARTITION : WindowFrame.DEFAULT_WITH_ORDER;
        }
        return new Case(partition.stream().map(n -> (PhysicalExpr) column(n)).toList(), order.stream().map(Order::key).toList(),
                new WindowExpr(function.function(), frame, "w"), sql);
    }

    private Order order(String name) {
        return new Order(name, random.nextBoolean(), random.nextBoolean());
    }

    private List<String> pick(List<String> names, int count) {
        List<String> copy = new ArrayList<>(names);
        java.util.Collections.shuffle(copy, random);
        return copy.subList(0, count);
    }

    private Function function() {
        int kind = random.nextInt(14);
        String value = List.of("x", "s", "m").get(random.nextInt(3));
        PhysicalExpr valueExpr = column(value);
        boolean ignoreNulls = random.nextInt(3) == 0;
        String nulls = ignoreNulls ? " IGNORE NULLS" : "";
        return switch (kind) {
            case 0 -> new Function(new WindowFunction.RowNumber(), "row_number()", true, false);
            case 1 -> rank(WindowFunction.Rank.Kind.RANK, "rank()");
            case 2 -> rank(WindowFunction.Rank.Kind.DENSE_RANK, "dense_rank()");
            case 3 -> rank(WindowFunction.Rank.Kind.PERCENT_RANK, "percent_rank()");
            case 4 -> rank(WindowFunction.Rank.Kind.CUME_DIST, "cume_dist()");
            case 5 -> {
                long n = List.of(1L, 2L, 3L, 7L, 1000L).get(random.nextInt(5));
                yield new Function(new WindowFunction.Ntile(new LiteralExpr(n, QuiverTypes.INT64)), "ntile(" + n + ")", true, false);
            }
            case 6 -> lagLead(value, valueExpr, ignoreNulls, nulls);
            case 7 -> frameValue(value, valueExpr, ignoreNulls, nulls);
            default -> aggregate();
        };
    }

    private static Function rank(WindowFunction.Rank.Kind kind, String sql) {
        return new Function(new WindowFunction.Rank(kind), sql, false, false);
    }

    private Function lagLead(String value, PhysicalExpr valueExpr, boolean ignoreNulls, String nulls) {
        boolean lead = random.nextBoolean();
        long offset = List.of(0L, 1L, 2L, 5L, -1L).get(random.nextInt(5));
        boolean withDefault = random.nextBoolean();
        Object defaultValue = switch (value) {
            case "x" -> 7L;
            case "s" -> "none";
            default -> new BigDecimal("-1.00");
        };
        String defaultSql = switch (value) {
            case "x" -> "7";
            case "s" -> "'none'";
            default -> "CAST(-1 AS DECIMAL(15, 2))";
        };
        PhysicalExpr defaultExpr = new LiteralExpr(withDefault ? defaultValue : null, valueExpr.type());
        String sql = (lead ? "lead(" : "lag(") + value + ", " + offset + (withDefault ? ", " + defaultSql : "") + nulls + ")";
        return new Function(new WindowFunction.LagLead(lead, valueExpr, new LiteralExpr(offset, QuiverTypes.INT64), defaultExpr, ignoreNulls),
                sql, true, false);
    }

    private Function frameValue(String value, PhysicalExpr valueExpr, boolean ignoreNulls, String nulls) {
        int which = random.nextInt(3);
        long n = 1 + random.nextInt(4);
        WindowFunction.FrameValue.Position position = WindowFunction.FrameValue.Position.values()[which];
        String sql = switch (position) {
            case FIRST -> "first_value(" + value + nulls + ")";
            case LAST -> "last_value(" + value + nulls + ")";
            case NTH -> "nth_value(" + value + ", " + n + nulls + ")";
        };
        return new Function(new WindowFunction.FrameValue(position, valueExpr, new LiteralExpr(n, QuiverTypes.INT64), ignoreNulls), sql, true, true);
    }

    private Function aggregate() {
        boolean distinct = random.nextInt(4) == 0;
        int kind = random.nextInt(9);
        return switch (kind) {
            case 0 -> distinct ? aggregate(AggregateFunction.COUNT, "s", true, QuiverTypes.INT64, "count")
                    : new Function(new WindowFunction.Aggregate(new AggregateExpr(AggregateFunction.COUNT, List.of(), false, "w", QuiverTypes.INT64)),
                            "count(*)", false, true);
            case 1 -> aggregate(AggregateFunction.COUNT, "x", distinct, QuiverTypes.INT64, "count");
            case 2 -> aggregate(AggregateFunction.SUM, "x", distinct, QuiverTypes.INT64, "sum");
            case 3 -> aggregate(AggregateFunction.SUM, "m", distinct, QuiverTypes.decimal(38, 2), "sum");
            case 4 -> aggregate(AggregateFunction.MIN, List.of("x", "s", "m", "d").get(random.nextInt(4)), distinct, null, "min");
            case 5 -> aggregate(AggregateFunction.MAX, List.of("x", "s", "m", "d").get(random.nextInt(4)), distinct, null, "max");
            case 6 -> aggregate(AggregateFunction.AVG, "x", distinct, QuiverTypes.FLOAT64, "avg");
            case 7 -> aggregate(AggregateFunction.AVG, "f", distinct, QuiverTypes.FLOAT64, "avg");
            default -> aggregate(AggregateFunction.SUM, "f", false, QuiverTypes.FLOAT64, "sum");
        };
    }

    private Function aggregate(AggregateFunction function, String arg, boolean distinct, ArrowType type, String name) {
        PhysicalExpr argExpr = column(arg);
        ArrowType result = type == null ? argExpr.type() : type;
        String sql = name + "(" + (distinct ? "DISTINCT " : "") + arg + ")";
        return new Function(new WindowFunction.Aggregate(new AggregateExpr(function, List.of(argExpr), distinct, "w", result)), sql, false, true);
    }

    private WindowFrame frame(List<Order> order, boolean rangeOffsets, boolean orderSensitive) {
        WindowFrame.Units units;
        if (rangeOffsets) {
            units = WindowFrame.Units.RANGE;
        } else if (orderSensitive) {
            units = random.nextBoolean() ? WindowFrame.Units.ROWS : WindowFrame.Units.GROUPS;
        } else {
            units = WindowFrame.Units.values()[random.nextInt(3)];
        }
        if (order.isEmpty() && units != WindowFrame.Units.ROWS) {
            units = WindowFrame.Units.ROWS;
        }
        while (true) {
            FrameBound start = bound(units, order, rangeOffsets);
            FrameBound end = bound(units, order, rangeOffsets);
            if (start.kind() == FrameBound.Kind.UNBOUNDED_FOLLOWING || end.kind() == FrameBound.Kind.UNBOUNDED_PRECEDING
                    || start.kind().ordinal() > end.kind().ordinal()) {
                continue;
            }
            boolean offsets = start.hasOffset() || end.hasOffset();
            if (units == WindowFrame.Units.RANGE && rangeOffsets != offsets) {
                continue;
            }
            WindowFrame.Exclusion exclusion = random.nextInt(3) == 0
                    ? WindowFrame.Exclusion.values()[random.nextInt(4)] : WindowFrame.Exclusion.NO_OTHERS;
            return new WindowFrame(units, start, end, exclusion);
        }
    }

    private FrameBound bound(WindowFrame.Units units, List<Order> order, boolean rangeOffsets) {
        int kind = random.nextInt(5);
        if (kind == 1 || kind == 3) {
            FrameOffset offset = offset(units, order, rangeOffsets);
            return kind == 1 ? FrameBound.preceding(offset) : FrameBound.following(offset);
        }
        return switch (kind) {
            case 0 -> FrameBound.unboundedPreceding();
            case 2 -> FrameBound.currentRow();
            default -> FrameBound.unboundedFollowing();
        };
    }

    private FrameOffset offset(WindowFrame.Units units, List<Order> order, boolean rangeOffsets) {
        if (units != WindowFrame.Units.RANGE) {
            return new FrameOffset.Count(List.of(0L, 1L, 2L, 3L, 10L, 100_000L).get(random.nextInt(6)));
        }
        String key = order.get(0).column();
        return switch (key) {
            case "d" -> random.nextBoolean() ? new FrameOffset.Interval(0, (1 + random.nextInt(40)) * 86_400_000_000L)
                    : new FrameOffset.Interval(1 + random.nextInt(3), 0);
            case "ts" -> random.nextBoolean() ? new FrameOffset.Interval(0, (1 + random.nextInt(100)) * 3_600_000_000L)
                    : new FrameOffset.Interval(1, 0);
            case "m", "f" -> new FrameOffset.Number(new BigDecimal(List.of("0", "0.25", "1.5", "10", "40").get(random.nextInt(5))));
            default -> new FrameOffset.Number(new BigDecimal(List.of("0", "1", "3", "10").get(random.nextInt(4))));
        };
    }

    private static String frameSql(WindowFrame frame, List<Order> order) {
        String exclusion = frame.exclusion() == WindowFrame.Exclusion.NO_OTHERS ? ""
                : " EXCLUDE " + frame.exclusion().name().replace('_', ' ');
        return " " + frame.units() + " BETWEEN " + boundSql(frame.start()) + " AND " + boundSql(frame.end()) + exclusion;
    }

    private static String boundSql(FrameBound bound) {
        if (!bound.hasOffset()) {
            return bound.display();
        }
        FrameOffset offset = bound.offset().orElseThrow();
        String value = offset instanceof FrameOffset.Interval interval
                ? (interval.months() != 0 ? "INTERVAL " + interval.months() + " MONTH" : "INTERVAL " + interval.micros() + " MICROSECOND")
                : offset.display();
        return value + (bound.kind() == FrameBound.Kind.PRECEDING ? " PRECEDING" : " FOLLOWING");
    }
}
