package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.BatchStream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The result stream of a distributed query: the head stage's output, which tells the query when it
 * ended (all read, failed, or closed early) so that every task is ended then, and which reports a
 * task's failure (naming stage and worker) in place of the data stream error it caused.
 */
final class HeadStageStream implements BatchStream {
    private final BatchStream head;
    private final DistributedQuery query;
    private boolean ended;
    private boolean closed;

    HeadStageStream(BatchStream head, DistributedQuery query) {
        this.head = requireNonNull(head, "head is null");
        this.query = requireNonNull(query, "query is null");
    }

    @Override
    public Schema schema() {
        return head.schema();
    }

    @Override
    public VectorSchemaRoot next() {
        if (ended) {
            return null;
        }
        VectorSchemaRoot batch;
        try {
            batch = head.next();
        } catch (RuntimeException | StackOverflowError e) {
            ended = true;
            throw query.headFailed(e);
        }
        if (batch == null) {
            ended = true;
            query.headFinished().ifPresent(failure -> {
                throw failure;
            });
        }
        return batch;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            head.close();
        } finally {
            if (!ended) {
                ended = true;
                query.headClosed();
            }
        }
    }
}
