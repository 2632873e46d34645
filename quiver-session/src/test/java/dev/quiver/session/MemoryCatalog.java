package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Tables held as rows of Java values, for SQL tests. */
public final class MemoryCatalog implements Catalog {
    private final Map<String, MemoryTable> tables = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    public MemoryCatalog add(String name, Schema schema, List<List<Object>> rows) {
        tables.put(name, new MemoryTable(name, schema, rows));
        return this;
    }

    public MemoryTable memoryTable(String name) {
        return tables.get(name);
    }

    @Override
    public Optional<TableSource> table(String name) {
        return Optional.ofNullable(tables.get(name));
    }

    @Override
    public Set<String> tableNames() {
        return Collections.unmodifiableSet(tables.keySet());
    }

    /** A table over {@link MemoryScanExec}, honouring the scan's projection and partition count. */
    public record MemoryTable(String name, Schema schema, List<List<Object>> rows) implements TableSource {
        public MemoryTable {
            requireNonNull(name, "name is null");
            requireNonNull(schema, "schema is null");
            rows = List.copyOf(rows.stream().map(row -> Collections.unmodifiableList(new ArrayList<>(row))).toList());
        }

        @Override
        public Statistics statistics() {
            return new Statistics(Estimate.exact(rows.size()), Estimate.absent(),
                    Collections.nCopies(schema.getFields().size(), ColumnStatistics.unknown()));
        }

        @Override
        public ExecutionPlan scan(ScanRequest request) {
            List<Integer> columns = request.projection().orElseGet(() -> {
                List<Integer> all = new ArrayList<>();
                for (int i = 0; i < schema.getFields().size(); i++) {
                    all.add(i);
                }
                return all;
            });
            List<Field> fields = new ArrayList<>();
            columns.forEach(c -> fields.add(schema.getFields().get(c)));
            List<List<Object>> projected = new ArrayList<>();
            for (List<Object> row : rows) {
                List<Object> out = new ArrayList<>();
                columns.forEach(c -> out.add(row.get(c)));
                projected.add(out);
            }
            return MemoryScanExec.split(new Schema(fields), projected, request.targetPartitions());
        }
    }
}
