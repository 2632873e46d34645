package dev.quiver.examples.numbers;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.Statistics;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table of the numbers {@code 0 .. rows-1}: column {@code n} (BIGINT), and {@code bucket} = {@code n % buckets}.
 * Nothing is stored: every scan computes its range.
 */
public final class NumbersTable implements TableSource {
    static final Schema SCHEMA = new Schema(List.of(Field.notNullable("n", new ArrowType.Int(64, true)),
            Field.notNullable("bucket", new ArrowType.Int(64, true))));

    private final String name;
    private final long rows;
    private final long buckets;

    public NumbersTable(String name, long rows, long buckets) {
        this.name = requireNonNull(name, "name is null");
        this.rows = rows;
        this.buckets = buckets;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Statistics statistics() {
        return NumbersScanExec.statistics(0, rows, buckets, List.of(0, 1));
    }

    /** {@code n} is unique. */
    @Override
    public List<List<Integer>> uniqueKeys() {
        return List.of(List.of(0));
    }

    @Override
    public ExecutionPlan scan(ScanRequest request) {
        return new NumbersScanExec(0, rows, buckets, request.targetPartitions(), request.projection().orElse(List.of(0, 1)));
    }
}
