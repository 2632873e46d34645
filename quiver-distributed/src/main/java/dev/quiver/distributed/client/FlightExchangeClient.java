package dev.quiver.distributed.client;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.operator.ExchangeClient;
import dev.quiver.distributed.operator.RemotePartition;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The {@link ExchangeClient} over Arrow Flight: one DoGet per {@link RemotePartition}, all read
 * concurrently on threads of the reading task's executor, over the pooled connections of a
 * {@link WorkerConnections}. Stateless beyond those connections; thread-safe.
 */
public final class FlightExchangeClient implements ExchangeClient {
    private final WorkerConnections connections;

    public FlightExchangeClient(WorkerConnections connections) {
        this.connections = requireNonNull(connections, "connections is null");
    }

    @Override
    public BatchStream open(List<RemotePartition> sources, Schema schema, TaskContext context) {
        return RemoteBatchStream.start(List.copyOf(sources), schema, context, connections);
    }
}
