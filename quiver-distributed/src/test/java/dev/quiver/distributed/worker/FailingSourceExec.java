package dev.quiver.distributed.worker;

import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.TaskContext;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A test source whose first pull fails with SOURCE_ERROR and whose close takes a while, like a
 * repartition's close that waits for its input threads: a window in which the consumer of the failed
 * partition could end the query before the task has recorded its failure.
 */
final class FailingSourceExec extends TestSourceExec {
    static final PlanNodeCodec<FailingSourceExec> CODEC = PlanNodeCodec.of("test.FailingSource", FailingSourceExec.class, (node, out, c) -> { },
            (in, children, c) -> new FailingSourceExec());
    static final String MESSAGE = "the test source failed";
    private static final long CLOSE_MILLIS = 300;

    @Override
    public String name() {
        return "FailingSourceExec";
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        BatchStream failing = new BatchStream() {
            @Override
            public Schema schema() {
                return SCHEMA;
            }

            @Override
            public VectorSchemaRoot next() {
                throw new QuiverException(ErrorCode.SOURCE_ERROR, MESSAGE);
            }

            @Override
            public void close() {
                TestCluster.sleep(CLOSE_MILLIS);
            }
        };
        return new MeteredBatchStream(failing, metrics().partition(partition), context);
    }
}
