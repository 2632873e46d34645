package dev.quiver.distributed.worker;

import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.TaskContext;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A test source whose first pull overflows its thread's stack, as evaluating an expression nested
 * too deeply does: an {@link Error}, not an exception, which the worker must still report.
 */
final class OverflowingSourceExec extends TestSourceExec {
    static final PlanNodeCodec<OverflowingSourceExec> CODEC = PlanNodeCodec.of("test.OverflowingSource", OverflowingSourceExec.class,
            (node, out, c) -> { }, (in, children, c) -> new OverflowingSourceExec());

    @Override
    public String name() {
        return "OverflowingSourceExec";
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        BatchStream overflowing = new BatchStream() {
            @Override
            public Schema schema() {
                return SCHEMA;
            }

            @Override
            public VectorSchemaRoot next() {
                deeper(0);
                throw new AssertionError("the stack did not overflow");
            }

            @Override
            public void close() {
            }
        };
        return new MeteredBatchStream(overflowing, metrics().partition(partition), context);
    }

    private static long deeper(long depth) {
        return deeper(depth + 1) + 1;
    }
}
