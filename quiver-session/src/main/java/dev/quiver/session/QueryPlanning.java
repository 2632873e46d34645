package dev.quiver.session;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.spi.Catalog;
import java.util.Map;

/** SQL text to physical plan: Calcite planning (quiver-sql) then the physical planner. */
final class QueryPlanning {
    private QueryPlanning() {}

    static ExecutionPlan plan(Catalog catalog, Map<String, String> views, SessionSettings settings, String sql) {
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, "SQL planning is not wired in yet");
    }

    static void validateView(Catalog catalog, Map<String, String> views, SessionSettings settings, String sql) {
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, "SQL planning is not wired in yet");
    }
}
