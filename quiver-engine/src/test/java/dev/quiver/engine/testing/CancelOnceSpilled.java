package dev.quiver.engine.testing;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Passes its input through and cancels the execution once a file exists under {@code watched}
 * (a spill directory), going on producing: what a user cancelling a spilling query looks like to
 * the operator above.
 */
public final class CancelOnceSpilled extends AbstractExecutionPlan {
    private final ExecutionPlan input;
    private final Path watched;

    public CancelOnceSpilled(ExecutionPlan input, Path watched) {
        this.input = requireNonNull(input, "input is null");
        this.watched = requireNonNull(watched, "watched is null");
    }

    @Override
    public String name() {
        return "CancelOnceSpilled";
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public Partitioning outputPartitioning() {
        return input.outputPartitioning();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new CancelOnceSpilled(children.get(0), watched);
    }

    @Override
    public String displayLine() {
        return name();
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        BatchStream source = input.execute(partition, context);
        return new BatchStream() {
            @Override
            public Schema schema() {
                return source.schema();
            }

            @Override
            public VectorSchemaRoot next() {
                if (anyFileUnder(watched)) {
                    context.cancel("cancelled by the test while the operator spills");
                }
                return source.next();
            }

            @Override
            public void close() {
                source.close();
            }
        };
    }

    private static boolean anyFileUnder(Path directory) {
        try (Stream<Path> walk = Files.walk(directory)) {
            return walk.anyMatch(Files::isRegularFile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
