package dev.quiver.distributed.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.client.FlightWorkerClient;
import dev.quiver.distributed.client.WorkerConnections;
import dev.quiver.distributed.codec.PlanCodec;
import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.operator.ExchangeClient;
import dev.quiver.distributed.operator.RemotePartition;
import dev.quiver.distributed.protocol.DataTicket;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskRequest;
import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.testing.TestingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Real workers on 127.0.0.1 and a coordinator side (allocator, executor, connections) for tests.
 * {@link #close()} closes everything and fails if any worker or the coordinator side leaked
 * memory, threads or task state.
 */
final class TestCluster implements AutoCloseable {
    static final String VERSION = "test-1";
    /** The built-in codecs and the test nodes. */
    static final PlanCodec CODEC = PlanCodec.builder().nodeCodec(EndlessExec.CODEC).nodeCodec(FailingSourceExec.CODEC).nodeCodec(OverflowingSourceExec.CODEC).build();

    final BufferAllocator root = new RootAllocator();
    final QuiverExecutor executor = new QuiverExecutor("coordinator");
    final WorkerConnections connections = new WorkerConnections("coordinator", root, executor, CODEC);
    final List<WorkerServer> workers = new ArrayList<>();
    private final List<TaskContext> contexts = new ArrayList<>();
    private final List<BufferAllocator> contextAllocators = new ArrayList<>();

    TestCluster(int workerCount) {
        this(workerCount, 256L << 20);
    }

    TestCluster(int workerCount, long memoryLimitPerWorker) {
        for (int i = 0; i < workerCount; i++) {
            workers.add(WorkerServer.builder().name("worker-" + i).version(VERSION).cores(2).memoryLimit(memoryLimitPerWorker).codec(CODEC)
                    .unknownTaskWait(java.time.Duration.ofMillis(500)).start());
        }
    }

    WorkerServer worker(int i) {
        return workers.get(i);
    }

    FlightWorkerClient client(int worker) {
        return connections.workerClient(workers.get(worker).address());
    }

    /** A request with {@code settings} (by name, as text, as {@code SET} would take them) over the defaults. */
    static TaskRequest request(TaskId id, ExecutionPlan plan, Optional<ProducerHead> head, Map<String, String> settings) {
        return new TaskRequest(id, plan, head, DistributedSettings.TASK_REGISTRY.defaults().withAll(settings), VERSION);
    }

    /** A task context on the coordinator side that can read remote partitions. */
    TaskContext consumerContext(String name) {
        BufferAllocator allocator = root.newChildAllocator(name, 0, Long.MAX_VALUE);
        TaskContext context = new TaskContext(name, allocator, MemoryPool.unlimited(), executor, new ExecutionConfig(100, 2),
                Map.of(ExchangeClient.class, connections.exchangeClient()));
        contexts.add(context);
        contextAllocators.add(allocator);
        return context;
    }

    /** Every row of the given remote partitions, read as one consumer partition. */
    List<List<Object>> read(TaskContext context, List<RemotePartition> sources, org.apache.arrow.vector.types.pojo.Schema schema) {
        return rows(connections.exchangeClient().open(sources, schema, context));
    }

    /** Every row of {@code stream}, which this closes. */
    static List<List<Object>> rows(BatchStream stream) {
        List<List<Object>> rows = new ArrayList<>();
        try (stream) {
            VectorSchemaRoot batch;
            while ((batch = stream.next()) != null) {
                try (VectorSchemaRoot owned = batch) {
                    rows.addAll(Batches.toRows(owned));
                }
            }
        }
        return rows;
    }

    /**
     * What a shuffle's consumer partitions hold, computed in one process: every producer's rows
     * hash-repartitioned on {@code keys} into {@code partitions}.
     */
    static List<List<List<Object>>> singleNodeShuffle(List<ExecutionPlan> producers, List<PhysicalExpr> keys, int partitions) {
        List<List<List<Object>>> out = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            out.add(new ArrayList<>());
        }
        try (TestingContext testing = new TestingContext()) {
            for (ExecutionPlan producer : producers) {
                RepartitionExec repartition = new RepartitionExec(producer, new Partitioning.Hash(keys, partitions));
                List<BatchStream> streams = new ArrayList<>();
                for (int p = 0; p < partitions; p++) {
                    streams.add(repartition.execute(p, testing.context()));
                }
                // drain the outputs in turn; the repartition lets producers run ahead of an empty output
                for (int p = 0; p < partitions; p++) {
                    out.get(p).addAll(rows(streams.get(p)));
                }
                testing.reset();
            }
        }
        return out;
    }

    RemotePartition source(int worker, TaskId task, int partition, ProducerHead head, int consumer) {
        return new RemotePartition(workers.get(worker).address(), new DataTicket(task, partition, head, consumer));
    }

    /** Waits until every worker dropped its task state and memory (tasks release just after their final report). */
    void assertWorkersClean() {
        long deadline = System.nanoTime() + 5_000_000_000L;
        for (WorkerServer worker : workers) {
            while (System.nanoTime() < deadline && (worker.activeTasks() > 0 || worker.allocatedBytes() > 0 || worker.poolUsedBytes() > 0)) {
                sleep(10);
            }
            assertThat(worker.activeTasks()).as("tasks left on " + worker.address()).isZero();
            assertThat(worker.allocatedBytes()).as("Arrow bytes left on " + worker.address()).isZero();
            assertThat(worker.poolUsedBytes()).as("pool bytes left on " + worker.address()).isZero();
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        for (TaskContext context : contexts) {
            context.close();
        }
        contextAllocators.forEach(BufferAllocator::close);
        assertWorkersClean();
        connections.close();
        for (WorkerServer worker : workers) {
            worker.close();
        }
        executor.close();
        long leaked = root.getAllocatedMemory();
        root.close();
        assertThat(leaked).as("coordinator-side Arrow bytes leaked").isZero();
    }
}
