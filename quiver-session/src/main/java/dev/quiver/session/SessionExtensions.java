package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.codec.PlanCodec;
import dev.quiver.distributed.codec.spi.ExprCodec;
import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.distributed.plan.TaskEstimators;
import dev.quiver.engine.spi.TableSource;
import java.util.List;

/**
 * What a session was given beyond its catalog ({@link QuerySession.Builder#table},
 * {@link QuerySession.Builder#taskEstimator}, the codecs, {@link QuerySession.Builder#plugin}): the
 * tables it registers when it opens, the estimators its distributed planner consults, and the codecs
 * its coordinator and in-JVM workers serialize plans with.
 */
record SessionExtensions(List<TableSource> tables, TaskEstimators estimators, List<PlanNodeCodec<?>> nodeCodecs, List<ExprCodec<?>> exprCodecs) {
    SessionExtensions {
        tables = List.copyOf(requireNonNull(tables, "tables is null"));
        requireNonNull(estimators, "estimators is null");
        nodeCodecs = List.copyOf(requireNonNull(nodeCodecs, "nodeCodecs is null"));
        exprCodecs = List.copyOf(requireNonNull(exprCodecs, "exprCodecs is null"));
    }

    /** {@code builder} with these codecs added. */
    PlanCodec.Builder addCodecs(PlanCodec.Builder builder) {
        nodeCodecs.forEach(builder::nodeCodec);
        exprCodecs.forEach(builder::exprCodec);
        return builder;
    }
}
