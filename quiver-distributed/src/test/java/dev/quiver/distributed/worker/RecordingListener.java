package dev.quiver.distributed.worker;

import dev.quiver.distributed.client.TaskListener;
import dev.quiver.distributed.protocol.TaskError;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.engine.error.QuiverException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Records what a task's control stream delivered. */
class RecordingListener implements TaskListener {
    final List<TaskState> states = new ArrayList<>();
    final List<Optional<TaskError>> errors = new ArrayList<>();
    final CompletableFuture<TaskReport> report = new CompletableFuture<>();
    final CompletableFuture<QuiverException> failure = new CompletableFuture<>();

    @Override
    public synchronized void onStateChanged(TaskId task, TaskState state, Optional<TaskError> error) {
        states.add(state);
        errors.add(error);
    }

    @Override
    public void onFinalReport(TaskReport report) {
        this.report.complete(report);
    }

    @Override
    public void onStreamFailed(TaskId task, QuiverException error) {
        failure.complete(error);
    }

    synchronized List<TaskState> states() {
        return List.copyOf(states);
    }

    TaskReport awaitReport() {
        try {
            return report.get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("no final report" + (failure.isDone() ? "; the stream failed: " + failure.join().getMessage() : ""), e);
        }
    }

    QuiverException awaitFailure() {
        try {
            return failure.get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("the stream did not fail", e);
        }
    }

    /** Waits until the given state was reported. */
    void awaitState(TaskState state) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!states().contains(state)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no state " + state + " among " + states());
            }
            TestCluster.sleep(5);
        }
    }
}
