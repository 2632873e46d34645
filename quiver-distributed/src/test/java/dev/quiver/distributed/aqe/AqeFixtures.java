package dev.quiver.distributed.aqe;

import dev.quiver.distributed.operator.SampleSink;
import dev.quiver.distributed.protocol.PartitionSample;
import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.testing.TestingContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

/** Shared test helpers: TPC-H scans, a task context with a sample sink, and an order-independent checksum of a plan's output. */
public final class AqeFixtures {
    private AqeFixtures() {}

    /** A sink that keeps what it is given. */
    public static final class RecordingSink implements SampleSink {
        public final List<PartitionSample> samples = new CopyOnWriteArrayList<>();

        @Override
        public void accept(PartitionSample sample) {
            samples.add(sample);
        }
    }

    /** What a plan output: rows and a checksum that does not depend on the order of rows or batches. */
    public record Output(long rows, long checksum) {}

    public static ExecutionPlan scan(TpchCatalog catalog, String table, int partitions) {
        return catalog.table(table).orElseThrow().scan(ScanRequest.all(partitions));
    }

    public static ColumnExpr column(ExecutionPlan plan, String name) {
        List<Field> fields = plan.schema().getFields();
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).getName().equals(name)) {
                return new ColumnExpr(i, name, fields.get(i).getType(), fields.get(i).isNullable());
            }
        }
        throw new IllegalArgumentException("no column " + name);
    }

    public static TaskContext context(TestingContext testing, int batchSize, SampleSink sink) {
        return new TaskContext("aqe-test", testing.allocator(), testing.pool(), testing.context().executor(),
                new ExecutionConfig(batchSize, 2), Map.of(SampleSink.class, sink));
    }

    /** Runs every partition of {@code plan} to its end, one after the other. */
    public static Output run(ExecutionPlan plan, TaskContext context) {
        long rows = 0;
        long checksum = 0;
        for (int partition = 0; partition < plan.outputPartitioning().partitionCount(); partition++) {
            try (BatchStream stream = plan.execute(partition, context)) {
                VectorSchemaRoot batch;
                while ((batch = stream.next()) != null) {
                    try (VectorSchemaRoot owned = batch) {
                        rows += owned.getRowCount();
                        for (List<Object> row : Batches.toRows(owned)) {
                            checksum += row.hashCode() * 0x9E3779B97F4A7C15L;
                        }
                    }
                }
            }
        }
        return new Output(rows, checksum);
    }
}
