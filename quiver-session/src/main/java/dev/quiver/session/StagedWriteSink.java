package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.source.files.BatchFileWriter;
import dev.quiver.engine.source.files.StagedOutput;
import java.util.function.Consumer;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A {@link WriteSink} into files written under a staging name ({@link StagedOutput}): the commit
 * completes the files and runs {@code commit} (which moves them into place, and whatever makes
 * them part of a table); an abort, or a failed commit, deletes them.
 */
final class StagedWriteSink implements WriteSink {
    private final BatchFileWriter writer;
    private final StagedOutput output;
    private final Consumer<VectorSchemaRoot> check;
    private final Runnable commit;
    private boolean done;

    /**
     * @param check runs on each batch before it is written (a NOT NULL check), and may throw
     * @param commit runs once the files are complete; it commits {@code output} (and may do more)
     */
    StagedWriteSink(BatchFileWriter writer, StagedOutput output, Consumer<VectorSchemaRoot> check, Runnable commit) {
        this.writer = requireNonNull(writer, "writer is null");
        this.output = requireNonNull(output, "output is null");
        this.check = requireNonNull(check, "check is null");
        this.commit = requireNonNull(commit, "commit is null");
    }

    @Override
    public void write(VectorSchemaRoot batch) {
        check.accept(batch);
        writer.write(batch);
    }

    @Override
    public long commit() {
        if (done) {
            throw new IllegalStateException("the write to " + output.target() + " already ended");
        }
        try {
            writer.close();
            commit.run();
        } catch (RuntimeException e) {
            abort();
            throw e;
        }
        done = true;
        return writer.rowCount();
    }

    @Override
    public void abort() {
        if (done) {
            return;
        }
        done = true;
        try {
            writer.close();
        } catch (RuntimeException e) {
            // the staging output is deleted below; a writer that cannot finish has nothing more to say
        } finally {
            output.abort();
        }
    }
}
