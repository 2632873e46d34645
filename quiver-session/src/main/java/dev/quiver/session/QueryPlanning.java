package dev.quiver.session;

import dev.quiver.engine.config.Settings;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.metrics.PlanningTimer;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.sql.physical.PhysicalPlanner;
import dev.quiver.sql.physical.PhysicalPlannerOptions;
import dev.quiver.sql.planner.LogicalPlan;
import dev.quiver.sql.planner.QueryParameters;
import dev.quiver.sql.planner.SqlPlanner;
import java.util.Map;

/** SQL text to physical plan: Calcite planning ({@link SqlPlanner}) then the {@link PhysicalPlanner}. */
final class QueryPlanning {
    private QueryPlanning() {}

    static ExecutionPlan plan(Catalog catalog, Map<String, String> views, Settings settings, String sql) {
        return plan(catalog, views, settings, sql, new PlanningTimer());
    }

    /** {@link #plan}, recording the phases (parse, validate, convert, optimize, physical) in {@code timer}. */
    static ExecutionPlan plan(Catalog catalog, Map<String, String> views, Settings settings, String sql, PlanningTimer timer) {
        LogicalPlan logical = new SqlPlanner(catalog, views, settings).plan(sql, timer);
        return timer.time("physical", () -> new PhysicalPlanner(PhysicalPlannerOptions.from(settings)).plan(logical.root(), logical.columnNames()));
    }

    /** Validates a query with {@code ?} parameters: its columns and the parameters' types. */
    static QueryParameters.Prepared prepare(Catalog catalog, Map<String, String> views, Settings settings, String sql) {
        return new SqlPlanner(catalog, views, settings).prepare(sql);
    }

    /** Checks that {@code sql} is a valid view body (it plans against the catalog and the other views). */
    static void validateView(Catalog catalog, Map<String, String> views, Settings settings, String sql) {
        new SqlPlanner(catalog, views, settings).viewColumns(sql);
    }
}
