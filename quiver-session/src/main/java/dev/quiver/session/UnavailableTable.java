package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.Statistics;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table of a {@code --catalog} directory whose files could not be opened when the session
 * started (moved, deleted, unreadable): it keeps its name and columns, so that the session starts,
 * {@code DESCRIBE} and {@code DROP TABLE} work, and a query that reads it fails with the reason.
 */
final class UnavailableTable implements TableSource {
    private final String name;
    private final Schema schema;
    private final String reason;

    UnavailableTable(String name, Schema schema, String reason) {
        this.name = requireNonNull(name, "name is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.reason = requireNonNull(reason, "reason is null");
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
        throw new QuiverException(ErrorCode.SOURCE_ERROR, "Table " + name + " of the catalog directory cannot be read: " + reason);
    }
}
