package dev.quiver.engine.testing;

import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanExecutor;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryPool;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * An allocator, memory pool, executor and task context for one test. {@link #close()} fails the
 * test if any Arrow buffer or pool reservation leaked.
 */
public final class TestingContext implements AutoCloseable {
    private final BufferAllocator allocator = new RootAllocator();
    private final MemoryPool pool;
    private final QuiverExecutor executor = new QuiverExecutor("test");
    private final ExecutionConfig config;
    private TaskContext context;
    private int contexts;

    public TestingContext() {
        this(MemoryPool.unlimited(), new ExecutionConfig(ExecutionConfig.DEFAULT_BATCH_SIZE, 2));
    }

    public TestingContext(MemoryPool pool, ExecutionConfig config) {
        this.pool = pool;
        this.config = config;
        this.context = newContext();
    }

    public TestingContext withBatchSize(int rows) {
        return new TestingContext(pool, config.withBatchSize(rows));
    }

    /** The current task context; {@link #reset()} gives a fresh one. */
    public TaskContext context() {
        return context;
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    public MemoryPool pool() {
        return pool;
    }

    /** Closes the current task context (releasing shared state) and opens a new one. */
    public TaskContext reset() {
        context.close();
        context = newContext();
        return context;
    }

    /** Runs the plan to the end and returns its rows; resets the context afterwards. */
    public List<List<Object>> rows(ExecutionPlan plan) {
        try {
            return PlanExecutor.collectRows(plan, context);
        } finally {
            reset();
        }
    }

    private TaskContext newContext() {
        return new TaskContext("test" + (++contexts), allocator, pool, executor, config);
    }

    @Override
    public void close() {
        context.close();
        executor.close();
        long leaked = allocator.getAllocatedMemory();
        long reserved = pool.used();
        allocator.close();
        if (leaked != 0) {
            throw new AssertionError("leaked " + leaked + " bytes of Arrow memory");
        }
        if (reserved != 0) {
            throw new AssertionError("leaked " + reserved + " bytes of memory-pool reservations");
        }
    }
}
