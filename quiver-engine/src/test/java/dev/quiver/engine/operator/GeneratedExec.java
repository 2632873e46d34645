package dev.quiver.engine.operator;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A test source of one BIGINT column {@code v}: partition {@code p} yields batches of
 * {@code batchRows} rows with values {@code p * 1_000_000 + i}, for {@code batches} batches (or
 * forever when negative), optionally failing with {@code failCode} on partition {@code failPartition}
 * after its first batch. It counts streams opened and closed and batches produced.
 */
public final class GeneratedExec extends AbstractExecutionPlan {
    public static final Schema SCHEMA = new Schema(List.of(QuiverTypes.field("v", QuiverTypes.INT64, false)));

    private final int partitions;
    private final int batchRows;
    private final long batches;
    private final int failPartition;
    private final ErrorCode failCode;
    public final AtomicInteger opened = new AtomicInteger();
    public final AtomicInteger closed = new AtomicInteger();
    public final AtomicInteger produced = new AtomicInteger();

    private GeneratedExec(int partitions, int batchRows, long batches, int failPartition, ErrorCode failCode) {
        this.partitions = partitions;
        this.batchRows = batchRows;
        this.batches = batches;
        this.failPartition = failPartition;
        this.failCode = failCode;
    }

    public static GeneratedExec finite(int partitions, int batchRows, long batches) {
        return new GeneratedExec(partitions, batchRows, batches, -1, null);
    }

    public static GeneratedExec infinite(int partitions, int batchRows) {
        return new GeneratedExec(partitions, batchRows, -1, -1, null);
    }

    public static GeneratedExec failing(int partitions, int batchRows, int failPartition, ErrorCode code) {
        return new GeneratedExec(partitions, batchRows, -1, failPartition, requireNonNull(code, "code is null"));
    }

    /** Every value partition {@code p} produces when finite. */
    public List<List<Object>> expectedRows() {
        List<List<Object>> rows = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            for (long i = 0; i < batches * batchRows; i++) {
                rows.add(List.of(p * 1_000_000L + i));
            }
        }
        return rows;
    }

    @Override
    public String name() {
        return "GeneratedExec";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of();
    }

    @Override
    public Partitioning outputPartitioning() {
        return new Partitioning.Unknown(partitions);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return this;
    }

    @Override
    public String displayLine() {
        return "GeneratedExec";
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        opened.incrementAndGet();
        return new BatchStream() {
            private long emitted;
            private boolean done;

            @Override
            public Schema schema() {
                return SCHEMA;
            }

            @Override
            public VectorSchemaRoot next() {
                context.checkCancelled();
                if (partition == failPartition && emitted == 1) {
                    throw new QuiverException(failCode, "injected failure in partition " + partition);
                }
                if (batches >= 0 && emitted >= batches) {
                    return null;
                }
                List<List<Object>> rows = new ArrayList<>(batchRows);
                for (int i = 0; i < batchRows; i++) {
                    rows.add(List.of(partition * 1_000_000L + emitted * batchRows + i));
                }
                emitted++;
                produced.incrementAndGet();
                return Batches.fromRows(SCHEMA, rows, context.allocator());
            }

            @Override
            public void close() {
                if (!done) {
                    done = true;
                    closed.incrementAndGet();
                }
            }
        };
    }
}
