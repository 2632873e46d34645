package dev.quiver.session;

import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.engine.error.QueryWarning;
import dev.quiver.engine.error.WarningCode;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanTree;
import dev.quiver.engine.spi.TableScanExec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The warnings of a query that ended: what each {@link TableScanExec} of it makes of its counters,
 * summed over the partitions that ran it on one node or over the tasks that ran it on workers; and,
 * for a distributed query, the workers it skipped and the times it was run again ({@link #ofEvents}).
 * Two scans that warn alike (a table read twice) give one warning.
 */
final class QueryWarnings {
    private QueryWarnings() {}

    /** Whether any scan of {@code plan} may warn, so that a distributed query's final reports are worth waiting for. */
    static boolean mayWarn(ExecutionPlan plan) {
        return PlanTree.nodesOf(plan, TableScanExec.class).stream().anyMatch(TableScanExec::mayWarn);
    }

    /** The warnings of {@code plan} run on one node: its nodes hold the run's metrics. */
    static List<QueryWarning> of(ExecutionPlan plan) {
        Set<QueryWarning> warnings = new LinkedHashSet<>();
        for (TableScanExec scan : PlanTree.nodesOf(plan, TableScanExec.class)) {
            warnings.addAll(scan.warnings(scan.metrics().counters()));
        }
        return List.copyOf(warnings);
    }

    /** What the coordinator tells of how a distributed query ran ({@code events}): each worker it left out, each time it ran the query again. */
    static List<QueryWarning> ofEvents(List<QueryEvent> events) {
        List<QueryWarning> warnings = new ArrayList<>();
        for (QueryEvent event : events) {
            if (event instanceof QueryEvent.WorkerSkipped skipped) {
                warnings.add(new QueryWarning(WarningCode.WORKER_SKIPPED, skipped.warning()));
            } else if (event instanceof QueryEvent.QueryRetried retried) {
                warnings.add(new QueryWarning(WarningCode.QUERY_RETRIED, retried.warning()));
            }
        }
        return List.copyOf(warnings);
    }

    /** The warnings of a distributed query: its tasks' reports hold the run's metrics. */
    static List<QueryWarning> of(FinalPlan done) {
        Set<QueryWarning> warnings = new LinkedHashSet<>();
        for (Stage stage : done.plan().stages()) {
            List<ExecutionPlan> nodes = PlanTree.nodes(stage.plan());
            List<Map<String, Long>> counters = done.stageCounters(stage);
            for (int i = 0; i < nodes.size(); i++) {
                if (nodes.get(i) instanceof TableScanExec scan) {
                    warnings.addAll(scan.warnings(counters.get(i)));
                }
            }
        }
        return List.copyOf(warnings);
    }
}
