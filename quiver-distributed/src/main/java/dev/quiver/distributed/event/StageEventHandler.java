package dev.quiver.distributed.event;

/**
 * Application policy plugged into stage sizing (DESIGN §6). Registered on the session (and with
 * {@code --stage-handler class-name} on the CLI, which needs a public no-argument constructor);
 * every registered handler runs, in registration order. Both methods default to changing nothing.
 * Handlers must be thread-safe: independent branches of one query, and concurrent queries, fire
 * events concurrently.
 */
public interface StageEventHandler {
    /** How origins and errors name this handler: a hint from it has origin {@code handler <name>}. */
    String name();

    default DynamicStageBuiltEventResponse onStageBuilt(DynamicStageBuiltEvent event) {
        return DynamicStageBuiltEventResponse.unchanged();
    }

    default StageSampledEventResponse onStageSampled(StageSampledEvent event) {
        return StageSampledEventResponse.unchanged();
    }
}
