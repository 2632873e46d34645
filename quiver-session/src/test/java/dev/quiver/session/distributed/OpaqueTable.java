package dev.quiver.session.distributed;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import dev.quiver.engine.testing.OpaqueScanExec;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table of one BIGINT column {@code k} (1..rows) whose scan no {@code TaskEstimator} knows: the
 * distributed planner cannot split it, so the stage that scans it runs as one task ({@code Exact(1)}).
 */
record OpaqueTable(String name, int rows) implements TableSource {
    private static final Schema SCHEMA = new Schema(List.of(Field.nullable("k", new ArrowType.Int(64, true))));

    OpaqueTable {
        requireNonNull(name, "name is null");
    }

    static OpaqueTable of(String name, int rows) {
        return new OpaqueTable(name, rows);
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Statistics statistics() {
        return new Statistics(Estimate.exact(rows), Estimate.absent(), List.of(ColumnStatistics.unknown()));
    }

    @Override
    public ExecutionPlan scan(ScanRequest request) {
        List<List<Object>> values = new ArrayList<>();
        for (long k = 1; k <= rows; k++) {
            values.add(List.of(k));
        }
        return new OpaqueScanExec(MemoryScanExec.split(SCHEMA, values, request.targetPartitions()));
    }
}
