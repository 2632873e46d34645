package dev.quiver.distributed.coordinator;

import dev.quiver.distributed.client.WorkerClient;
import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.config.UnreachableWorkers;
import dev.quiver.distributed.protocol.WorkerInfo;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.QuiverExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Asks every worker who it is, all at once, before a query is dispatched: a worker nobody answers
 * for within {@code distributed.worker_info_timeout_ms} (each client retries a late or refused call
 * within it) fails the query with WORKER_UNREACHABLE naming its address, and a worker of another
 * version with WORKER_VERSION_MISMATCH.
 */
final class WorkerCheck {
    /** Beyond the clients' own deadline: only guards against a client that does not keep it. */
    private static final Duration GUARD = Duration.ofSeconds(10);

    private WorkerCheck() {}

    /** The query's (or the session's) {@code distributed.worker_info_timeout_ms}; past a day it counts as a day. */
    static Duration timeout(Settings settings) {
        return Duration.ofMillis(Math.min(settings.get(DistributedSettings.WORKER_INFO_TIMEOUT_MS), Duration.ofDays(1).toMillis()));
    }

    static List<WorkerInfo> check(List<WorkerClient> workers, String version, Duration timeout, QuiverExecutor executor) {
        return route(workers, version, timeout, UnreachableWorkers.FAIL, executor).infos();
    }

    /**
     * Asks every worker as {@link #check} does; with {@link UnreachableWorkers#SKIP} a worker that
     * is unreachable is left out (with why) instead of failing, unless none answers. A worker of
     * another version fails under either policy: that is a deployment error, not a lost worker.
     */
    static QueryWorkers route(List<WorkerClient> workers, String version, Duration timeout, UnreachableWorkers policy, QuiverExecutor executor) {
        if (workers.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "a distributed query needs at least one worker; none is configured");
        }
        List<CompletableFuture<WorkerInfo>> answers = new ArrayList<>();
        for (WorkerClient worker : workers) {
            CompletableFuture<WorkerInfo> answer = new CompletableFuture<>();
            executor.execute("worker-info-" + worker.address(), () -> {
                try {
                    answer.complete(worker.info(timeout));
                } catch (Throwable e) {
                    answer.completeExceptionally(e);
                }
            });
            answers.add(answer);
        }
        long deadline = System.nanoTime() + timeout.plus(GUARD).toNanos();
        List<WorkerClient> reachable = new ArrayList<>();
        List<WorkerInfo> infos = new ArrayList<>();
        List<QueryWorkers.Skipped> skipped = new ArrayList<>();
        QuiverException firstUnreachable = null;
        for (int i = 0; i < workers.size(); i++) {
            WorkerInfo info;
            try {
                info = await(workers.get(i), answers.get(i), deadline, timeout);
            } catch (QuiverException e) {
                if (policy == UnreachableWorkers.FAIL || e.errorCode() != ErrorCode.WORKER_UNREACHABLE) {
                    throw e;
                }
                firstUnreachable = firstUnreachable == null ? e : firstUnreachable;
                skipped.add(new QueryWorkers.Skipped(workers.get(i).address(), e.getMessage()));
                continue;
            }
            if (!info.version().equals(version)) {
                throw new QuiverException(ErrorCode.WORKER_VERSION_MISMATCH, "worker " + workers.get(i).address() + " runs Quiver "
                        + info.version() + " but this coordinator runs " + version + "; start workers of the same version");
            }
            reachable.add(workers.get(i));
            infos.add(info);
        }
        if (reachable.isEmpty()) {
            throw new QuiverException(ErrorCode.WORKER_UNREACHABLE, "no worker answers: " + skipped.stream().map(QueryWorkers.Skipped::reason)
                    .collect(Collectors.joining("; ")), firstUnreachable);
        }
        return new QueryWorkers(reachable, infos, skipped);
    }

    private static WorkerInfo await(WorkerClient worker, CompletableFuture<WorkerInfo> answer, long deadline, Duration timeout) {
        try {
            return answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new QuiverException(ErrorCode.WORKER_UNREACHABLE, "worker " + worker.address() + " did not answer the info call within "
                    + DistributedSettings.WORKER_INFO_TIMEOUT_MS.name() + "=" + timeout.toMillis() + " ms; check that it runs and that the address is right");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QuiverException(ErrorCode.QUERY_CANCELLED, "interrupted while checking worker " + worker.address());
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof QuiverException quiver && quiver.getMessage().contains(worker.address().toString())) {
                throw quiver;
            }
            throw new QuiverException(ErrorCode.WORKER_UNREACHABLE, "worker " + worker.address() + " cannot be reached: " + cause.getMessage(), cause);
        }
    }
}
