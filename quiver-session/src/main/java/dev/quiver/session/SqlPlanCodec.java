package dev.quiver.session;

import dev.quiver.distributed.codec.PlanCodec;
import dev.quiver.distributed.codec.spi.ExprCodec;
import dev.quiver.session.spi.QuiverPlugin;
import dev.quiver.sql.physical.AtMostOneRowExpr;
import java.util.List;

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

    /** A builder with the SQL layer's codecs and those of {@code plugins}: what a worker serving sessions with these plugins needs. */
    public static PlanCodec.Builder builder(List<QuiverPlugin> plugins) {
        PlanCodec.Builder builder = builder();
        for (QuiverPlugin plugin : plugins) {
            plugin.planNodeCodecs().forEach(builder::nodeCodec);
            plugin.exprCodecs().forEach(builder::exprCodec);
        }
        return builder;
    }
}
