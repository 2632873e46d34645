package dev.quiver.session;

import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Where a writing statement ({@code INSERT}, {@code CREATE TABLE AS}, {@code COPY}) puts its
 * query's rows. Nothing is visible before {@link #commit()}, which makes all of it visible at
 * once; {@link #abort()} removes everything written. Used by one thread.
 */
interface WriteSink {
    /** The result of a writing statement: the rows it wrote, as DuckDB reports them. */
    Schema COUNT_SCHEMA = new Schema(List.of(QuiverTypes.field("Count", QuiverTypes.INT64, false)));

    /** Takes the rows of {@code batch}; the caller keeps and closes the batch. */
    void write(VectorSchemaRoot batch);

    /** Makes everything written visible; returns the number of rows. After a failed commit nothing is left. */
    long commit();

    /** Deletes or releases everything written; idempotent, and a no-op after a commit. */
    void abort();
}
