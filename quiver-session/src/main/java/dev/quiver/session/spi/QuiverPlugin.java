package dev.quiver.session.spi;

import dev.quiver.distributed.codec.spi.ExprCodec;
import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.distributed.event.StageEventHandler;
import dev.quiver.distributed.plan.TaskEstimator;
import dev.quiver.engine.spi.TableSource;
import java.util.List;

/**
 * What an extension contributes to Quiver: tables, the {@link TaskEstimator}s of its custom leaves
 * (so that a stage reading one runs as many tasks as the planner or AQE chooses), the codecs that
 * take its custom plan nodes and expressions to workers, and stage-event handlers. Every method
 * defaults to contributing nothing.
 *
 * <p>Give a plugin to a session with {@code QuerySession.Builder.plugin(plugin)}. The {@code quiver}
 * command ({@code quiver sql} and {@code quiver worker}) finds plugins on its class path with
 * {@link java.util.ServiceLoader}: list the implementation in
 * {@code META-INF/services/dev.quiver.session.spi.QuiverPlugin} of the plugin's jar and put the jar
 * on the class path ({@code QUIVER_CLASSPATH=plugin.jar ./quiver sql ...}). A worker needs the same
 * codecs as its coordinator: start it with the same plugins. docs/aqe.md ("Custom sources") walks
 * through the example in {@code quiver-examples}.
 *
 * <p>Implementations need a public no-argument constructor (for {@code ServiceLoader}); what they
 * return must be thread-safe, since concurrent queries share it.
 */
public interface QuiverPlugin {
    /** How listings and errors name the plugin. */
    default String name() {
        return getClass().getName();
    }

    /** Tables every session with this plugin can query, by their names. */
    default List<TableSource> tables() {
        return List.of();
    }

    /** The estimators of this plugin's custom leaves, by leaf class. */
    default List<TaskEstimator<?>> taskEstimators() {
        return List.of();
    }

    /** Codecs of this plugin's custom plan nodes (coordinator and workers need the same). */
    default List<PlanNodeCodec<?>> planNodeCodecs() {
        return List.of();
    }

    /** Codecs of this plugin's custom expressions. */
    default List<ExprCodec<?>> exprCodecs() {
        return List.of();
    }

    /** Handlers of the stage events of every distributed query (docs/exact-consumer-tasks.md), in registration order with the session's others. */
    default List<StageEventHandler> stageEventHandlers() {
        return List.of();
    }
}
