package dev.quiver.sql.catalog;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.spi.Projections;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table of the {@link InformationSchema}: its rows are computed when a query scans it (physical
 * planning), not when the validator looks it up, so a view that reads it can itself be listed.
 * Its statistics are unknown for the same reason.
 */
final class MetadataTable implements TableSource {
    private final String name;
    private final Schema schema;
    private final Supplier<List<List<Object>>> rows;

    MetadataTable(String name, Schema schema, Supplier<List<List<Object>>> rows) {
        this.name = requireNonNull(name, "name is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.rows = requireNonNull(rows, "rows is null");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public Statistics statistics() {
        return Statistics.unknown(schema);
    }

    @Override
    public ExecutionPlan scan(ScanRequest request) {
        List<Integer> columns = request.projection().orElseGet(() -> IntStream.range(0, schema.getFields().size()).boxed().toList());
        Schema projected = Projections.project("information_schema", name, schema, columns);
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows.get()) {
            List<Object> values = new ArrayList<>(columns.size());
            columns.forEach(c -> values.add(row.get(c)));
            out.add(values);
        }
        return MemoryScanExec.split(projected, out, 1);
    }
}
