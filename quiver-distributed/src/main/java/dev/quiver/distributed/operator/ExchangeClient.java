package dev.quiver.distributed.operator;

import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reads remote partitions for a {@link StageInputExec}. The worker (and the coordinator, for the
 * head stage) puts one into the {@link TaskContext} as a service; the Flight implementation opens
 * one DoGet per source.
 */
public interface ExchangeClient {
    /**
     * One stream of the batches of every source, read concurrently (a producer's repartition can
     * only progress when all its outputs are drained, so reading sources one after another could
     * deadlock). Batches are allocated from {@code context.allocator()}; errors name the worker.
     */
    BatchStream open(List<RemotePartition> sources, Schema schema, TaskContext context);
}
