package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.client.WorkerClient;
import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.config.UnreachableWorkers;
import dev.quiver.distributed.coordinator.discovery.StaticWorkerResolver;
import dev.quiver.distributed.coordinator.discovery.WorkerResolver;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The coordinator of a session's distributed queries: where its workers are (a {@link WorkerResolver},
 * asked again before each query), the connections to them, the
 * {@link ExchangeClient} its head stages read with, the query event listeners and the
 * {@link CoordinatorMetrics}. Each query is a {@link DistributedQuery}. Thread-safe.
 *
 * <p>The coordinator owns the worker clients and the exchange client (if closeable) and closes them.
 */
public final class Coordinator implements AutoCloseable {
    private final WorkerResolver resolver;
    private final Function<WorkerAddress, WorkerClient> connect;
    /** The clients of every worker the resolver has named so far (a worker that left keeps its idle client until the coordinator closes). */
    private final Map<WorkerAddress, WorkerClient> clients = new ConcurrentHashMap<>();
    private final ExchangeClient exchangeClient;
    private final CoordinatorConfig config;
    private final List<QueryEventListener> listeners;
    private final CoordinatorMetrics metrics = new CoordinatorMetrics();

    /** Over a fixed list of workers. */
    public Coordinator(List<WorkerClient> workers, ExchangeClient exchangeClient, CoordinatorConfig config, List<QueryEventListener> listeners) {
        this(staticResolver(workers), fixedClients(workers), exchangeClient, config, listeners);
        workers.forEach(worker -> clients.put(worker.address(), worker));
    }

    /**
     * Over the workers {@code resolver} names before each query ({@link #resolveWorkers}), connected
     * to through {@code connect} (called once per address; the coordinator closes the clients).
     */
    public Coordinator(WorkerResolver resolver, Function<WorkerAddress, WorkerClient> connect, ExchangeClient exchangeClient, CoordinatorConfig config,
            List<QueryEventListener> listeners) {
        this.resolver = requireNonNull(resolver, "resolver is null");
        this.connect = requireNonNull(connect, "connect is null");
        this.exchangeClient = requireNonNull(exchangeClient, "exchangeClient is null");
        this.config = requireNonNull(config, "config is null");
        this.listeners = List.copyOf(requireNonNull(listeners, "listeners is null"));
    }

    private static WorkerResolver staticResolver(List<WorkerClient> workers) {
        requireNonNull(workers, "workers is null");
        if (workers.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "a coordinator needs at least one worker");
        }
        Set<WorkerAddress> seen = new HashSet<>();
        for (WorkerClient worker : workers) {
            if (!seen.add(worker.address())) {
                throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "worker " + worker.address() + " is listed twice");
            }
        }
        return new StaticWorkerResolver(workers.stream().map(WorkerClient::address).toList());
    }

    private static Function<WorkerAddress, WorkerClient> fixedClients(List<WorkerClient> workers) {
        Map<WorkerAddress, WorkerClient> byAddress = new LinkedHashMap<>();
        workers.forEach(worker -> byAddress.put(worker.address(), worker));
        return byAddress::get;
    }

    /** The workers the resolver names now (not checked: see {@link #resolveWorkers}). */
    public List<WorkerAddress> workers() {
        return resolver.resolve();
    }

    /** Where the workers come from, as configured (e.g. {@code dns:quiver-workers:7070}). */
    public WorkerResolver resolver() {
        return resolver;
    }

    /**
     * The workers a query is planned on: those the resolver names now that answer the info call
     * under {@code settings}' {@code distributed.worker_info_timeout_ms}; one that does not is left
     * out with a warning under {@code distributed.unreachable_workers=SKIP} (unless none answers) and
     * fails with WORKER_UNREACHABLE under FAIL. A worker of another version always fails.
     */
    public QueryWorkers resolveWorkers(QuiverExecutor executor, Settings settings) {
        return resolveWorkers(executor, settings, settings.get(DistributedSettings.UNREACHABLE_WORKERS));
    }

    /** {@link #resolveWorkers(QuiverExecutor, Settings)} under {@code policy} instead of the setting's. */
    public QueryWorkers resolveWorkers(QuiverExecutor executor, Settings settings, UnreachableWorkers policy) {
        List<WorkerAddress> addresses = resolver.resolve();
        if (addresses.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "no worker to run on: " + resolver.describe() + " names none");
        }
        List<WorkerClient> named = addresses.stream().map(this::client).toList();
        return WorkerCheck.route(named, config.version(), WorkerCheck.timeout(settings), policy, executor);
    }

    private WorkerClient client(WorkerAddress address) {
        WorkerClient client = clients.computeIfAbsent(address, connect);
        if (client == null) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "no client for worker " + address);
        }
        return client;
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

    /**
     * Asks every worker who it is, under {@code settings}' {@code distributed.worker_info_timeout_ms};
     * fails like a query would on an unreachable worker or a version mismatch.
     */
    public List<WorkerInfo> checkWorkers(QuiverExecutor executor, Settings settings) {
        return resolveWorkers(executor, settings, UnreachableWorkers.FAIL).infos();
    }

    /**
     * A query ready to {@linkplain DistributedQuery#start() start}: its head stage will run in
     * {@code headContext}, which must offer {@link #headServices()}; {@code taskSettings} travel with
     * every task request. A {@link PlannedQuery.Adaptive} query is cut into stages and each is sized
     * when it closes, from its inputs' samples (DESIGN §5).
     */
    public DistributedQuery newQuery(String queryId, PlannedQuery planned, TaskContext headContext, Settings taskSettings) {
        return new DistributedQuery(queryId, planned, () -> resolveWorkers(headContext.executor(), taskSettings), headContext, taskSettings, config,
                metrics, new QueryEvents(listeners));
    }

    /** A query routed to {@code workers} (checked by {@link #resolveWorkers} when it was planned; not asked again at start). */
    public DistributedQuery newQuery(String queryId, PlannedQuery planned, QueryWorkers workers, TaskContext headContext, Settings taskSettings) {
        requireNonNull(workers, "workers is null");
        return new DistributedQuery(queryId, planned, () -> workers, headContext, taskSettings, config, metrics, new QueryEvents(listeners));
    }

    /**
     * A query as its client runs it: attempt 1 planned now by {@code attempts}, and under
     * {@code distributed.retry_policy=QUERY} ({@code settings}) further attempts when one loses a worker
     * before any row reached the client ({@link RetryingQuery}). Each attempt's head context is a new
     * one over {@code parent}'s allocator, pool, executor and configuration, with {@link #headServices()}.
     */
    public RetryingQuery newRetryingQuery(String queryId, Settings settings, TaskContext parent, RetryingQuery.Attempts attempts) {
        return new RetryingQuery(queryId, settings, parent, headServices(), attempts, new QueryEvents(listeners), metrics);
    }

    /** A query over statically planned stages. */
    public DistributedQuery newQuery(String queryId, DistributedPlan plan, TaskContext headContext, Settings taskSettings) {
        return newQuery(queryId, new PlannedQuery.Static(plan), headContext, taskSettings);
    }

    @Override
    public void close() {
        RuntimeException first = null;
        for (WorkerClient worker : clients.values()) {
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
