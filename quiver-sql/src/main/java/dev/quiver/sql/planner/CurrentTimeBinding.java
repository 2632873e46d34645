package dev.quiver.sql.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.function.Volatility;
import dev.quiver.engine.expr.kernel.DateKernels;
import dev.quiver.sql.function.RegistrySqlFunction;
import dev.quiver.sql.physical.TemporalLiterals;
import java.time.Instant;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.fun.SqlAbstractTimeFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Binds the current date and time ({@code now()}, {@code today()}, {@code CURRENT_TIMESTAMP},
 * {@code CURRENT_DATE}, {@code LOCALTIMESTAMP}) to one instant per query: each call becomes a
 * literal of the query's start time (UTC), so every call in the query, and every task of a
 * distributed query, sees the same value, and expressions over it fold like any constant. Runs
 * on the converted plan, before optimization.
 */
final class CurrentTimeBinding extends RelHomogeneousShuttle {
    private final RexShuttle binder;

    private CurrentTimeBinding(RexShuttle binder) {
        this.binder = binder;
    }

    /** {@code rel} with the current-time calls replaced by the time {@code start}. */
    static RelNode apply(RelNode rel, Instant start) {
        requireNonNull(start, "start is null");
        long micros = Math.addExact(Math.multiplyExact(start.getEpochSecond(), 1_000_000L), start.getNano() / 1000);
        return rel.accept(new CurrentTimeBinding(new Binder(rel.getCluster().getRexBuilder(), micros)));
    }

    @Override
    public RelNode visit(RelNode other) {
        return super.visit(other).accept(binder);
    }

    private static final class Binder extends RexShuttle {
        private final RexBuilder rexBuilder;
        private final long micros;

        Binder(RexBuilder rexBuilder, long micros) {
            this.rexBuilder = rexBuilder;
            this.micros = micros;
        }

        @Override
        public RexNode visitCall(RexCall call) {
            boolean current = call.getOperator() instanceof SqlAbstractTimeFunction || call.getOperator() == SqlStdOperatorTable.CURRENT_DATE
                    || call.getOperator() instanceof RegistrySqlFunction function && function.function().volatility() == Volatility.STABLE;
            if (!current) {
                return super.visitCall(call);
            }
            return switch (call.getType().getSqlTypeName()) {
                case DATE -> rexBuilder.makeCast(call.getType(), TemporalLiterals.date(rexBuilder, DateKernels.days(micros)));
                case TIMESTAMP -> rexBuilder.makeCast(call.getType(), TemporalLiterals.timestamp(rexBuilder, micros, call.getType().getPrecision()));
                default -> call; // CURRENT_TIME and LOCALTIME: no TIME type, the translator reports it
            };
        }
    }
}
