package dev.quiver.distributed.worker;

import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.TaskContext;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/** A test source that never ends: batches of consecutive numbers until its task is stopped. */
final class EndlessExec extends TestSourceExec {
    static final PlanNodeCodec<EndlessExec> CODEC = PlanNodeCodec.of("test.Endless", EndlessExec.class, (node, out, c) -> { },
            (in, children, c) -> new EndlessExec());

    @Override
    public String name() {
        return "EndlessExec";
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        BatchStream numbers = new BatchStream() {
            private long next;

            @Override
            public Schema schema() {
                return SCHEMA;
            }

            @Override
            public VectorSchemaRoot next() {
                VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA, context.allocator());
                BigIntVector vector = (BigIntVector) batch.getVector(0);
                vector.allocateNew(context.batchSize());
                for (int i = 0; i < context.batchSize(); i++) {
                    vector.set(i, next++);
                }
                batch.setRowCount(context.batchSize());
                return batch;
            }

            @Override
            public void close() {
            }
        };
        return new MeteredBatchStream(numbers, metrics().partition(partition), context);
    }
}
