package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.BatchStream;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/** A stream of one batch holding rows already known (EXPLAIN text, statement results). */
final class RowsBatchStream implements BatchStream {
    private final Schema schema;
    private final List<List<Object>> rows;
    private final BufferAllocator allocator;
    private boolean done;

    RowsBatchStream(Schema schema, List<List<Object>> rows, BufferAllocator allocator) {
        this.schema = requireNonNull(schema, "schema is null");
        this.rows = requireNonNull(rows, "rows is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public VectorSchemaRoot next() {
        if (done || rows.isEmpty()) {
            done = true;
            return null;
        }
        done = true;
        return Batches.fromRows(schema, rows, allocator);
    }

    @Override
    public void close() {
        done = true;
    }
}
