package dev.quiver.session;

import dev.quiver.distributed.codec.PlanCodec;
import dev.quiver.distributed.codec.spi.ExprCodec;
import dev.quiver.sql.physical.AtMostOneRowExpr;

/**
 * The {@link PlanCodec} for plans the SQL layer builds: the engine's built-in codecs plus codecs
 * of the SQL layer's own expressions, which quiver-distributed cannot see (it depends on the
 * engine only).
 */
public final class SqlPlanCodec {
    static final ExprCodec<AtMostOneRowExpr> AT_MOST_ONE_ROW = ExprCodec.of("sql.at_most_one_row", AtMostOneRowExpr.class,
            (expr, out, c) -> {
                out.set("rowCount", c.expr(expr.rowCount()));
                out.set("value", c.expr(expr.value()));
            },
            (in, c) -> new AtMostOneRowExpr(c.expr(c.required(in, "rowCount")), c.expr(c.required(in, "value"))));

    private SqlPlanCodec() {}

    /** A builder with the SQL layer's codecs registered; add custom codecs and services to it. */
    public static PlanCodec.Builder builder() {
        return PlanCodec.builder().exprCodec(AT_MOST_ONE_ROW);
    }
}
