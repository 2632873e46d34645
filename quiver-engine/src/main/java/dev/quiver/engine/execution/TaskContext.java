package dev.quiver.engine.execution;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Setting;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.spill.SpillDirectory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Everything one execution of a plan (a local query, or one task on a worker) shares: the Arrow
 * allocator batches come from, the memory pool reservations grow in, the executor whose threads
 * drive partitions, the settings, and cancellation.
 *
 * <p>State that the partitions of one plan node share (a collect-left join's build side, a
 * repartition's queues) lives here, keyed by node identity, created on first use by
 * {@link #sharedState(ExecutionPlan, Class, Supplier)}, and closed with the context.
 *
 * <p>The context does not own the allocator, pool or executor; it owns its shared state, which
 * {@link #close()} releases.
 */
public final class TaskContext implements AutoCloseable {
    private final String taskId;
    private final BufferAllocator allocator;
    private final MemoryPool memoryPool;
    private final QuiverExecutor executor;
    private final ExecutionConfig config;
    private final Map<ExecutionPlan, Object> sharedState = new IdentityHashMap<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final Map<Class<?>, Object> services;
    /** Created on first spill; guarded by {@code sharedState}. */
    private SpillDirectory spillDirectory;
    private volatile String cancelReason;
    private volatile Throwable failure;
    /** The context whose cancellation this one shares ({@link #forRerun}), or null. */
    private final TaskContext parent;

    public TaskContext(String taskId, BufferAllocator allocator, MemoryPool memoryPool, QuiverExecutor executor, ExecutionConfig config) {
        this(taskId, allocator, memoryPool, executor, config, Map.of());
    }

    /**
     * A context that also offers {@code services} to the plan's nodes: runtime collaborators that
     * are not plan data, such as the client a distributed stage input reads remote partitions with.
     */
    public TaskContext(String taskId, BufferAllocator allocator, MemoryPool memoryPool, QuiverExecutor executor, ExecutionConfig config,
            Map<Class<?>, Object> services) {
        this(taskId, allocator, memoryPool, executor, config, services, null);
    }

    private TaskContext(String taskId, BufferAllocator allocator, MemoryPool memoryPool, QuiverExecutor executor, ExecutionConfig config,
            Map<Class<?>, Object> services, TaskContext parent) {
        this.parent = parent;
        this.services = Map.copyOf(requireNonNull(services, "services is null"));
        this.services.forEach((type, service) -> {
            if (!type.isInstance(service)) {
                throw new IllegalArgumentException("service " + service + " is not a " + type.getName());
            }
        });
        this.taskId = requireNonNull(taskId, "taskId is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.memoryPool = requireNonNull(memoryPool, "memoryPool is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.config = requireNonNull(config, "config is null");
    }

    /** A name for this execution, used in thread names and errors, e.g. {@code q12} or {@code q12.s3.t1}. */
    public String taskId() {
        return taskId;
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    public MemoryPool memoryPool() {
        return memoryPool;
    }

    public QuiverExecutor executor() {
        return executor;
    }

    public ExecutionConfig config() {
        return config;
    }

    /** The service of {@code type} this execution was given; a node that needs one the runner did not provide fails clearly. */
    public <T> T service(Class<T> type) {
        Object service = services.get(type);
        if (service == null) {
            throw new QuiverException(ErrorCode.PLAN_ERROR,
                    "execution " + taskId + " has no " + type.getSimpleName() + ": this plan can only run where one is provided (e.g. on a worker)");
        }
        return type.cast(service);
    }

    public int batchSize() {
        return config.batchSize();
    }

    /**
     * The value of {@code setting} for this execution: the session's, or on a worker the task
     * request's (which carries the engine's and the {@code distributed.*} settings). An operator
     * reads a setting here, so that a new one is only its declaration.
     */
    public <T> T setting(Setting<T> setting) {
        return config.settings().get(setting);
    }

    /**
     * The state the partitions of {@code node} share, created by {@code factory} on first use. If
     * the state is {@link AutoCloseable} it is closed with this context (after its partitions'
     * streams, which must therefore not rely on it being closed for them).
     */
    public <T> T sharedState(ExecutionPlan node, Class<T> type, Supplier<T> factory) {
        synchronized (sharedState) {
            Object state = sharedState.get(node);
            if (state == null) {
                state = requireNonNull(factory.get(), "shared state factory returned null");
                sharedState.put(node, state);
                if (state instanceof AutoCloseable closeable) {
                    closeables.add(closeable);
                }
            }
            return type.cast(state);
        }
    }

    /**
     * Where this execution's operators spill: a subdirectory of {@code spill_directory} made on first
     * use and deleted, with whatever files are left in it, when this context closes. A rerun context
     * shares its parent's.
     */
    public SpillDirectory spillDirectory() {
        if (parent != null) {
            return parent.spillDirectory();
        }
        synchronized (sharedState) {
            if (spillDirectory == null) {
                String configured = setting(EngineSettings.SPILL_DIRECTORY);
                Path directory = Path.of(configured.isEmpty() ? System.getProperty("java.io.tmpdir") : configured);
                Object opener = services.get(SpillDirectory.FileOpener.class);
                spillDirectory = new SpillDirectory(directory, taskId, setting(EngineSettings.SPILL_COMPRESSION).newCodec(),
                        opener == null ? SpillDirectory.FileOpener.DEFAULT : (SpillDirectory.FileOpener) opener);
                closeables.add(spillDirectory);
            }
            return spillDirectory;
        }
    }

    /**
     * A context for executing part of this execution's plan once more (the recursive part of a
     * recursive query, once per iteration): the same allocator, pool, executor, settings, services
     * and cancellation — a failure or cancellation of either is seen by both — but its own shared
     * state, so that nodes whose partitions share state start afresh. The caller closes it once the
     * run's streams are closed.
     */
    public TaskContext forRerun(String name) {
        return new TaskContext(taskId + "." + name, allocator, memoryPool, executor, config, services, root());
    }

    private TaskContext root() {
        return parent == null ? this : parent;
    }

    /** Asks every stream of this execution to stop at its next check. */
    public void cancel(String reason) {
        if (parent != null) {
            parent.cancel(reason);
            return;
        }
        if (cancelReason == null) {
            cancelReason = requireNonNull(reason, "reason is null");
        }
    }

    /**
     * Records the first failure of any thread working for this execution, and cancels the rest,
     * so that a failure on a producer thread is not masked by the cancellations it causes.
     */
    public void fail(Throwable error) {
        if (parent != null) {
            parent.fail(error);
            return;
        }
        if (failure == null) {
            failure = error;
        }
        cancel("failed: " + error.getMessage());
    }

    public boolean isCancelled() {
        return root().cancelReason != null;
    }

    /** Throws the recorded failure, or QUERY_CANCELLED, if this execution should stop. */
    public void checkCancelled() {
        if (parent != null) {
            parent.checkCancelled();
            return;
        }
        if (cancelReason != null) {
            Throwable error = failure;
            if (error instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (error instanceof Error fatal) {
                throw fatal;
            }
            throw new QuiverException(ErrorCode.QUERY_CANCELLED, "Query " + taskId + " was cancelled: " + cancelReason);
        }
    }

    @Override
    public void close() {
        List<AutoCloseable> toClose;
        synchronized (sharedState) {
            toClose = new ArrayList<>(closeables);
            closeables.clear();
            sharedState.clear();
        }
        RuntimeException first = null;
        for (int i = toClose.size() - 1; i >= 0; i--) {
            try {
                toClose.get(i).close();
            } catch (Exception e) {
                if (first == null) {
                    first = e instanceof RuntimeException runtime ? runtime
                            : new QuiverException(ErrorCode.INTERNAL_ERROR, "closing task state failed: " + e.getMessage(), e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
