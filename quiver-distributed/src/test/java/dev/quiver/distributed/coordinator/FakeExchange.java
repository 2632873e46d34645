package dev.quiver.distributed.coordinator;

import dev.quiver.distributed.operator.ExchangeClient;
import dev.quiver.distributed.operator.RemotePartition;
import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An exchange double: each remote partition yields one row {@code (producer task index, worker port)},
 * so a test sees which producer tasks a bound input read and where; in blocking mode a stream waits
 * until its context is cancelled, as a read from a hung producer would.
 */
final class FakeExchange implements ExchangeClient {
    final List<RemotePartition> opened = new CopyOnWriteArrayList<>();
    volatile boolean blocking;
    final CountDownLatch blocked = new CountDownLatch(1);

    @Override
    public BatchStream open(List<RemotePartition> sources, Schema schema, TaskContext context) {
        opened.addAll(sources);
        List<List<Object>> rows = new ArrayList<>();
        for (RemotePartition source : sources) {
            rows.add(List.of(source.ticket().producerTask().taskIndex(), source.worker().port()));
        }
        return new BatchStream() {
            private boolean done;

            @Override
            public Schema schema() {
                return schema;
            }

            @Override
            public VectorSchemaRoot next() {
                if (blocking) {
                    blocked.countDown();
                    while (!context.isCancelled()) {
                        try {
                            TimeUnit.MILLISECONDS.sleep(5);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            break;
                        }
                    }
                    context.checkCancelled();
                }
                if (done) {
                    return null;
                }
                done = true;
                return Batches.fromRows(schema, rows, context.allocator());
            }

            @Override
            public void close() {
            }
        };
    }
}
