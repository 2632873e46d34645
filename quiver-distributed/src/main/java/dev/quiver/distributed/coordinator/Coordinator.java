package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.client.WorkerClient;
import dev.quiver.distributed.coordinator.spi.QueryEventListener;
import dev.quiver.distributed.operator.ExchangeClient;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.distributed.protocol.WorkerInfo;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The coordinator of a session's distributed queries: the connections to its workers, the
 * {@link ExchangeClient} its head stages read with, the query event listeners and the
 * {@link CoordinatorMetrics}. Each query is a {@link DistributedQuery}. Thread-safe.
 *
 * <p>The coordinator owns the worker clients and the exchange client (if closeable) and closes them.
 */
public final class Coordinator implements AutoCloseable {
    private final List<WorkerClient> workers;
    private final ExchangeClient exchangeClient;
    private final CoordinatorConfig config;
    private final List<QueryEventListener> listeners;
    private final CoordinatorMetrics metrics = new CoordinatorMetrics();

    public Coordinator(List<WorkerClient> workers, ExchangeClient exchangeClient, CoordinatorConfig config, List<QueryEventListener> listeners) {
        this.workers = List.copyOf(requireNonNull(workers, "workers is null"));
        this.exchangeClient = requireNonNull(exchangeClient, "exchangeClient is null");
        this.config = requireNonNull(config, "config is null");
        this.listeners = List.copyOf(requireNonNull(listeners, "listeners is null"));
        if (this.workers.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "a coordinator needs at least one worker");
        }
        Set<WorkerAddress> seen = new HashSet<>();
        for (WorkerClient worker : this.workers) {
            if (!seen.add(worker.address())) {
                throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "worker " + worker.address() + " is listed twice");
            }
        }
    }

    public List<WorkerAddress> workers() {
        return workers.stream().map(WorkerClient::address).toList();
    }

    public CoordinatorConfig config() {
        return config;
    }

    public CoordinatorMetrics metrics() {
        return metrics;
    }

    /** The services the head stage's {@link TaskContext} must offer (the exchange client its stage inputs read with). */
    public Map<Class<?>, Object> headServices() {
        return Map.of(ExchangeClient.class, exchangeClient);
    }

    /** Asks every worker who it is; fails like a query would on an unreachable worker or a version mismatch. */
    public List<WorkerInfo> checkWorkers(QuiverExecutor executor) {
        return WorkerCheck.check(workers, config.version(), config.workerCheckTimeout(), executor);
    }

    /**
     * A query ready to {@linkplain DistributedQuery#start() start}: its head stage will run in
     * {@code headContext}, which must offer {@link #headServices()}; {@code taskSettings} travel with
     * every task request. A {@link PlannedQuery.Adaptive} query is cut into stages and each is sized
     * when it closes, from its inputs' samples (DESIGN §5).
     */
    public DistributedQuery newQuery(String queryId, PlannedQuery planned, TaskContext headContext, Settings taskSettings) {
        return new DistributedQuery(queryId, planned, workers, headContext, taskSettings, config, metrics, new QueryEvents(listeners));
    }

    /** A query over statically planned stages. */
    public DistributedQuery newQuery(String queryId, DistributedPlan plan, TaskContext headContext, Settings taskSettings) {
        return newQuery(queryId, new PlannedQuery.Static(plan), headContext, taskSettings);
    }

    @Override
    public void close() {
        RuntimeException first = null;
        for (WorkerClient worker : workers) {
            try {
                worker.close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (exchangeClient instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                first = first == null ? DistributedQuery.asQuiver(e, "Closing the exchange client") : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
