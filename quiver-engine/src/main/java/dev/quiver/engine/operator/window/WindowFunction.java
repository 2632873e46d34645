package dev.quiver.engine.operator.window;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * What a window expression computes for each row. Ranking functions and LAG/LEAD look at the
 * partition and the current row's peers and ignore the frame; FIRST_VALUE, LAST_VALUE, NTH_VALUE
 * and aggregates look at the frame. Arguments are expressions over the {@link WindowExec}'s input.
 */
public sealed interface WindowFunction {
    /** The result type. */
    ArrowType type();

    /** Whether the result may be NULL. */
    boolean nullable();

    /** Whether the result depends on the frame. */
    default boolean usesFrame() {
        return false;
    }

    /** The expressions it reads from the input. */
    List<PhysicalExpr> args();

    String display();

    /** {@code ROW_NUMBER()}: 1, 2, 3, ... within the partition. */
    record RowNumber() implements WindowFunction {
        @Override
        public ArrowType type() {
            return QuiverTypes.INT64;
        }

        @Override
        public boolean nullable() {
            return false;
        }

        @Override
        public List<PhysicalExpr> args() {
            return List.of();
        }

        @Override
        public String display() {
            return "row_number()";
        }
    }

    /**
     * The ranks: {@code RANK()} (1 + rows before the peer group), {@code DENSE_RANK()} (1 + peer
     * groups before it), {@code PERCENT_RANK()} ((rank - 1) / (rows - 1), 0 for one row) and
     * {@code CUME_DIST()} (rows up to the end of the peer group / rows), all within the partition.
     */
    record Rank(Kind kind) implements WindowFunction {
        public enum Kind { RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST }

        public Rank {
            requireNonNull(kind, "kind is null");
        }

        @Override
        public ArrowType type() {
            return kind == Kind.PERCENT_RANK || kind == Kind.CUME_DIST ? QuiverTypes.FLOAT64 : QuiverTypes.INT64;
        }

        @Override
        public boolean nullable() {
            return false;
        }

        @Override
        public List<PhysicalExpr> args() {
            return List.of();
        }

        @Override
        public String display() {
            return kind.name().toLowerCase(java.util.Locale.ROOT) + "()";
        }
    }

    /**
     * {@code NTILE(buckets)}: splits the partition into {@code buckets} groups as equal as possible
     * (the first ones one row larger) and numbers them from 1. A bucket count that is not positive
     * fails the query; NULL gives NULL.
     */
    record Ntile(PhysicalExpr buckets) implements WindowFunction {
        public Ntile {
            requireNonNull(buckets, "buckets is null");
        }

        @Override
        public ArrowType type() {
            return QuiverTypes.INT64;
        }

        @Override
        public boolean nullable() {
            return buckets.nullable();
        }

        @Override
        public List<PhysicalExpr> args() {
            return List.of(buckets);
        }

        @Override
        public String display() {
            return "ntile(" + buckets.display() + ")";
        }
    }

    /**
     * {@code LAG(value, offset, default)} ({@code lead} false) and {@code LEAD(...)}: the value
     * {@code offset} rows before (after) the current row in its partition, or {@code defaultValue}
     * when there is no such row. A negative offset looks the other way; a NULL offset gives NULL.
     * With {@code ignoreNulls} the offset counts only rows whose value is not NULL.
     */
    record LagLead(boolean lead, PhysicalExpr value, PhysicalExpr offset, PhysicalExpr defaultValue, boolean ignoreNulls)
            implements WindowFunction {
        public LagLead {
            requireNonNull(value, "value is null");
            requireNonNull(offset, "offset is null");
            requireNonNull(defaultValue, "defaultValue is null");
            if (!QuiverTypes.isInteger(offset.type())) {
                throw new QuiverException(ErrorCode.PLAN_ERROR, (lead ? "LEAD" : "LAG") + " offset must be an integer, not " + QuiverTypes.sqlName(offset.type()));
            }
            if (!defaultValue.type().equals(value.type())) {
                throw new QuiverException(ErrorCode.PLAN_ERROR, (lead ? "LEAD" : "LAG") + " default of type " + QuiverTypes.sqlName(defaultValue.type())
                        + " does not match the value's " + QuiverTypes.sqlName(value.type()));
            }
        }

        @Override
        public ArrowType type() {
            return value.type();
        }

        @Override
        public boolean nullable() {
            return true;
        }

        @Override
        public List<PhysicalExpr> args() {
            return List.of(value, offset, defaultValue);
        }

        @Override
        public String display() {
            return (lead ? "lead(" : "lag(") + value.display() + ", " + offset.display() + ", " + defaultValue.display() + ")"
                    + (ignoreNulls ? " IGNORE NULLS" : "");
        }
    }

    /**
     * {@code FIRST_VALUE(value)}, {@code LAST_VALUE(value)} and {@code NTH_VALUE(value, n)} (the
     * n-th row of the frame, from 1): NULL when the frame has no such row. With
     * {@code ignoreNulls} only rows whose value is not NULL count.
     */
    record FrameValue(Position position, PhysicalExpr value, PhysicalExpr n, boolean ignoreNulls) implements WindowFunction {
        public enum Position { FIRST, LAST, NTH }

        public FrameValue {
            requireNonNull(position, "position is null");
            requireNonNull(value, "value is null");
            requireNonNull(n, "n is null");
            if (!QuiverTypes.isInteger(n.type())) {
                throw new QuiverException(ErrorCode.PLAN_ERROR, "NTH_VALUE position must be an integer, not " + QuiverTypes.sqlName(n.type()));
            }
        }

        @Override
        public ArrowType type() {
            return value.type();
        }

        @Override
        public boolean nullable() {
            return true;
        }

        @Override
        public boolean usesFrame() {
            return true;
        }

        @Override
        public List<PhysicalExpr> args() {
            return position == Position.NTH ? List.of(value, n) : List.of(value);
        }

        @Override
        public String display() {
            String name = position.name().toLowerCase(java.util.Locale.ROOT) + "_value(";
            return name + args().stream().map(PhysicalExpr::display).collect(Collectors.joining(", ")) + ")"
                    + (ignoreNulls ? " IGNORE NULLS" : "");
        }
    }

    /**
     * An aggregate over the frame, computed with the same accumulators as GROUP BY: COUNT, SUM,
     * AVG, MIN, MAX and any other {@link AggregateExpr}, with DISTINCT.
     */
    record Aggregate(AggregateExpr aggregate) implements WindowFunction {
        public Aggregate {
            requireNonNull(aggregate, "aggregate is null");
        }

        @Override
        public ArrowType type() {
            return aggregate.type();
        }

        @Override
        public boolean nullable() {
            return aggregate.outputField().isNullable();
        }

        @Override
        public boolean usesFrame() {
            return true;
        }

        @Override
        public List<PhysicalExpr> args() {
            return aggregate.args();
        }

        @Override
        public String display() {
            return aggregate.display();
        }
    }
}
