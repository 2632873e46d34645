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
 * Passes its input through, and cancels the execution once a file exists under {@code watched}
 * (an operator above it has spilled), going on producing: for tests of cancellation while spilling.
 */
public final class CancelOnceFilesExist extends AbstractExecutionPlan {
    private final ExecutionPlan input;
    private final Path watched;

    public CancelOnceFilesExist(ExecutionPlan input, Path watched) {
        this.input = requireNonNull(input, "input is null");
        this.watched = requireNonNull(watched, "watched is null");
    }

    /** The files and directories below {@code directory}, except files named {@code a-file} (tests' stand-ins). */
    public static List<Path> filesUnder(Path directory) throws IOException {
        try (Stream<Path> walk = Files.walk(directory)) {
            return walk.filter(path -> !path.equals(directory)).filter(path -> !path.getFileName().toString().equals("a-file")).toList();
        }
    }

    @Override
    public String name() {
        return "CancelOnceFilesExist";
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
        return new CancelOnceFilesExist(children.get(0), watched);
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
                try {
                    if (!filesUnder(watched).isEmpty()) {
                        context.cancel("cancelled by the test while spilling");
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return source.next();
            }

            @Override
            public void close() {
                source.close();
            }
        };
    }
}
