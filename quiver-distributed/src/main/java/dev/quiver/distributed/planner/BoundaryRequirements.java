package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.event.ConsumerTasks;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.plan.TaskCountHints;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The consumer counts handlers asked for at one boundary, one per handler (a handler's answer to
 * {@code StageSampledEvent} replaces its own earlier answer to the stage-built event: it is the
 * same decision with better statistics). Every instance is valid: each exact is within the task
 * limit and agrees with the consumer's own hints and every other handler's exact, including its
 * {@code P_c}; constructing one that is not fails with {@code TASK_COUNT_CONFLICT} naming both
 * origins.
 */
public record BoundaryRequirements(StageBoundary boundary, List<HandlerCount> counts) {
    public BoundaryRequirements {
        requireNonNull(boundary, "boundary is null");
        counts = List.copyOf(requireNonNull(counts, "counts is null"));
        validate(boundary, counts);
    }

    public static BoundaryRequirements none(StageBoundary boundary) {
        return new BoundaryRequirements(boundary, List.of());
    }

    /** These requirements with {@code handler}'s count set to {@code tasks} (replacing its earlier one); fails at once when it conflicts. */
    public BoundaryRequirements with(String handler, ConsumerTasks tasks) {
        List<HandlerCount> next = new ArrayList<>(counts.stream().filter(count -> !count.handler().equals(handler)).toList());
        next.add(HandlerCount.of(handler, tasks, boundary));
        return new BoundaryRequirements(boundary, next);
    }

    /**
     * These requirements with {@code handler}'s answer to the stage-sampled event (DESIGN §6): it
     * replaces the handler's stage-built count, the same decision with better statistics, under one
     * rule — an exact from the stage-built event was validated before the producer was dispatched,
     * so the sampled answer may confirm or raise it (the consumer is never coalesced below it) but
     * not lower it or turn it into a Desired; the {@code P_c} it came with stays (the producer runs
     * with it). A sampled answer against that rule fails with {@code TASK_COUNT_CONFLICT} naming both
     * events.
     */
    public BoundaryRequirements withSampled(String handler, ConsumerTasks tasks) {
        Optional<HandlerCount> built = counts.stream().filter(count -> count.handler().equals(handler)).findFirst();
        if (built.isEmpty() || !built.get().tasks().exact()) {
            return with(handler, tasks);
        }
        ConsumerTasks before = built.get().tasks();
        if (!tasks.exact() || tasks.tasks() < before.tasks()) {
            String origin = HandlerCount.origin(handler, boundary);
            throw new QuiverException(ErrorCode.TASK_COUNT_CONFLICT, origin + " answered the stage-sampled event with " + tasks + " after requiring "
                    + before + " at the stage-built event; once the producer is dispatched an exact consumer count may only be confirmed or raised, "
                    + "never lowered or made advisory");
        }
        return with(handler, before.partitionsPerConsumerTask().isPresent() ? ConsumerTasks.exact(tasks.tasks(), before.partitionsPerConsumerTask().getAsInt())
                : tasks);
    }

    /** The hints to merge into the consumer stage's hints when {@link StagePlanningLoop} sizes it. */
    public List<TaskCountHint> hints() {
        return counts.stream().map(HandlerCount::hint).toList();
    }

    /** The handlers' hints for a consumer reading stages {@code inputStageIds}: what {@code required} holds for each of those boundaries. */
    public static List<TaskCountHint> hintsFor(List<Integer> inputStageIds, Map<Integer, BoundaryRequirements> required) {
        List<TaskCountHint> hints = new ArrayList<>();
        for (int input : inputStageIds) {
            BoundaryRequirements requirements = required.get(input);
            if (requirements != null) {
                hints.addAll(requirements.hints());
            }
        }
        return hints;
    }

    /** The exact consumer count, if a handler required one. */
    public Optional<TaskCountHint.Exact> exact() {
        return counts.stream().map(HandlerCount::hint).filter(TaskCountHint.Exact.class::isInstance).map(TaskCountHint.Exact.class::cast).findFirst();
    }

    /** The {@code P_c} an exact requirement set, if any; otherwise the boundary's planned one stays. */
    public OptionalInt partitionsPerConsumerTask() {
        return counts.stream().map(count -> count.tasks().partitionsPerConsumerTask()).filter(OptionalInt::isPresent).findFirst().orElse(OptionalInt.empty());
    }

    /** {@code P_c} as the consumer will read it: the override, or the planned one. */
    public int effectivePartitionsPerConsumerTask() {
        return partitionsPerConsumerTask().orElse(boundary.partitionsPerConsumerTask());
    }

    /** Who set {@link #effectivePartitionsPerConsumerTask()}: the exact that overrides it, or the plan. */
    public String partitionsOrigin() {
        return counts.stream().filter(count -> count.tasks().partitionsPerConsumerTask().isPresent()).map(count -> count.hint().origin()).findFirst()
                .orElse("planned for " + boundary.describe());
    }

    private static void validate(StageBoundary boundary, List<HandlerCount> counts) {
        String stage = "stage " + boundary.consumerStageId();
        HandlerCount withPartitions = null;
        for (HandlerCount count : counts) {
            OptionalInt partitions = count.tasks().partitionsPerConsumerTask();
            if (partitions.isPresent()) {
                if (boundary.kind() != BoundaryKind.SHUFFLE) {
                    throw new QuiverException(ErrorCode.INVALID_ARGUMENT, count.hint().origin() + " sets P_c=" + partitions.getAsInt() + " on a "
                            + boundary.kind() + " boundary; only a shuffle's consumer partitions can be chosen");
                }
                if (withPartitions != null && withPartitions.tasks().partitionsPerConsumerTask().getAsInt() != partitions.getAsInt()) {
                    throw new QuiverException(ErrorCode.TASK_COUNT_CONFLICT, stage + " has conflicting consumer partition counts: P_c="
                            + withPartitions.tasks().partitionsPerConsumerTask().getAsInt() + " from " + withPartitions.hint().origin() + " and P_c="
                            + partitions.getAsInt() + " from " + count.hint().origin());
                }
                withPartitions = count;
            }
        }
        List<TaskCountHint> all = new ArrayList<>(boundary.consumerHints());
        counts.forEach(count -> all.add(count.hint()));
        // the merge throws TASK_COUNT_CONFLICT naming the origins for two different exacts (two handlers, or a handler and Exact(1))
        // and for an exact above the task limit, which it never clamps
        TaskCountHints.merge(stage, all, boundary.maxTasksPerStage(), boundary.maxTasksOrigin());
    }
}
