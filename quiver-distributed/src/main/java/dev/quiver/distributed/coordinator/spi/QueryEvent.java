package dev.quiver.distributed.coordinator.spi;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.protocol.TaskError;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.distributed.protocol.WorkerAddress;
import java.util.List;
import java.util.Optional;

/**
 * Something that happened to a distributed query, in the order the coordinator saw it. For each
 * stage: {@link StageClosed} (its inputs are dispatched, so its shape is final), {@link StageSized}
 * (its task count and the hint that set it), {@link StageDispatched} (its tasks were sent); with
 * adaptive task counts also {@link StageCosted} just before its {@link StageSized} (one of each per
 * stage, for the plan it is dispatched with, also after a stage-event handler rewrote it) and
 * {@link StageSampled} once its samples are in (always after its {@link StageDispatched}); for
 * each task, {@link TaskStateChanged} (PLANNED, SENT, then what the worker reports); and one
 * {@link QueryEnded}. A {@link WorkerSkipped} comes before the first stage's events. A query that
 * is run again after it lost a worker has the events of each attempt in turn, each attempt's
 * {@link QueryEnded} followed by a {@link QueryRetried}. Events of one task arrive in order; events of different tasks interleave.
 */
public sealed interface QueryEvent {
    String queryId();

    /** Every input stage of stage {@code stageId} has been dispatched; the stage may now be sized. */
    record StageClosed(String queryId, int stageId, List<Integer> inputStageIds) implements QueryEvent {
        public StageClosed {
            requireNonNull(queryId, "queryId is null");
            inputStageIds = List.copyOf(requireNonNull(inputStageIds, "inputStageIds is null"));
        }
    }

    /** Stage {@code stageId} runs as {@code taskCount} tasks of {@code partitionsPerTask} partitions, as {@code hint} (with its origin) decided. */
    record StageSized(String queryId, int stageId, int taskCount, int partitionsPerTask, TaskCountHint hint) implements QueryEvent {
        public StageSized {
            requireNonNull(queryId, "queryId is null");
            requireNonNull(hint, "hint is null");
        }
    }

    /**
     * AQE (DESIGN §5 steps 1–2): stage {@code stageId} was costed from its leaves' statistics (its
     * inputs' sampled statistics, or its sources'); {@code costHint} is the task count the cost asks for.
     */
    record StageCosted(String queryId, int stageId, long costBytes, TaskCountHint costHint) implements QueryEvent {
        public StageCosted {
            requireNonNull(queryId, "queryId is null");
            requireNonNull(costHint, "costHint is null");
        }
    }

    /**
     * AQE (DESIGN §5 steps 5–6): enough of stage {@code stageId}'s partitions reported samples; the
     * extrapolated output ({@code summary} as {@code SampledStatistics.summary()} gives it) is attached
     * to the boundary its consumer reads.
     */
    record StageSampled(String queryId, int stageId, long rows, long bytes, long distinctKeys, double fractionSampled, String summary)
            implements QueryEvent {
        public StageSampled {
            requireNonNull(queryId, "queryId is null");
            requireNonNull(summary, "summary is null");
        }
    }

    /**
     * The tasks of stage {@code stageId} were sent: task t to {@code taskWorkers.get(t)}. The head
     * stage runs on the coordinator and has no workers.
     */
    record StageDispatched(String queryId, int stageId, List<WorkerAddress> taskWorkers) implements QueryEvent {
        public StageDispatched {
            requireNonNull(queryId, "queryId is null");
            taskWorkers = List.copyOf(requireNonNull(taskWorkers, "taskWorkers is null"));
        }
    }

    /** Task {@code task} on {@code worker} entered {@code state} ({@code error} says why a FAILED task failed). */
    record TaskStateChanged(TaskId task, WorkerAddress worker, TaskState state, Optional<TaskError> error) implements QueryEvent {
        public TaskStateChanged {
            requireNonNull(task, "task is null");
            requireNonNull(worker, "worker is null");
            requireNonNull(state, "state is null");
            requireNonNull(error, "error is null");
        }

        @Override
        public String queryId() {
            return task.queryId();
        }
    }

    /**
     * Worker {@code worker}, named by the resolver, did not answer before the query started and is
     * left out of it ({@code distributed.unreachable_workers=SKIP}); {@code reason} is the info call's error.
     */
    record WorkerSkipped(String queryId, WorkerAddress worker, String reason) implements QueryEvent {
        public WorkerSkipped {
            requireNonNull(queryId, "queryId is null");
            requireNonNull(worker, "worker is null");
            requireNonNull(reason, "reason is null");
        }

        /** The one-line warning a user sees (EXPLAIN ANALYZE, the query's warnings). */
        public String warning() {
            return ("worker " + worker + " skipped (distributed.unreachable_workers=SKIP): " + reason).replace('\n', ' ');
        }
    }

    /**
     * Attempt {@code queryId} of a query lost a worker before any row reached the client
     * ({@code distributed.retry_policy=QUERY}): its tasks were ended and the query runs again, planned
     * on the workers that answer now, as {@code retryQueryId} (attempt {@code attempt}, counting from 1);
     * {@code error} is why the attempt failed. The events of the new attempt follow.
     */
    record QueryRetried(String queryId, int attempt, String retryQueryId, String error) implements QueryEvent {
        public QueryRetried {
            requireNonNull(queryId, "queryId is null");
            requireNonNull(retryQueryId, "retryQueryId is null");
            requireNonNull(error, "error is null");
        }

        /** The one-line warning a user sees (EXPLAIN ANALYZE, the query's warnings). */
        public String warning() {
            return ("attempt " + (attempt - 1) + " (" + queryId + ") lost a worker before any row reached the client and the query ran again as "
                    + retryQueryId + " (distributed.retry_policy=QUERY): " + error).replace('\n', ' ');
        }
    }

    /** The query's result stream ended: how, and the error a failed query reported. */
    record QueryEnded(String queryId, Outcome outcome, Optional<String> error) implements QueryEvent {
        public QueryEnded {
            requireNonNull(queryId, "queryId is null");
            requireNonNull(outcome, "outcome is null");
            requireNonNull(error, "error is null");
        }
    }

    /** How a query ended. */
    enum Outcome {
        /** Every result row was read. */
        FINISHED,
        /** The client closed the result stream before its end (a LIMIT was satisfied, or it lost interest). */
        CLOSED_EARLY,
        FAILED,
        CANCELLED
    }
}
