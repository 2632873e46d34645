package dev.quiver.cli;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Renders DOT through Graphviz's {@code dot} command, for {@code --explain-format svg}. */
final class Graphviz {
    static final String NOT_INSTALLED = "--explain-format svg renders plans with Graphviz's dot command, which is not installed (or not on the PATH): "
            + "install Graphviz (apt-get install graphviz, dnf install graphviz, brew install graphviz; https://graphviz.org/download/), "
            + "or print the plan as DOT text with --explain-format dot";
    private static final long TIMEOUT_SECONDS = 60;

    private Graphviz() {}

    /** The Graphviz command: {@code dot} on the PATH, or the {@code quiver.dot} system property, or {@code $QUIVER_DOT}. */
    static String command() {
        return System.getProperty("quiver.dot", System.getenv().getOrDefault("QUIVER_DOT", "dot"));
    }

    /**
     * The SVG of {@code dot}, rendered by {@code command} ({@link #command()}). The graph and the
     * picture pass through temporary files, so no thread has to pump pipes.
     *
     * @throws QuiverException NOT_SUPPORTED when Graphviz is not installed, SOURCE_ERROR when dot fails
     */
    static String svg(String command, String dot) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("quiver-dot-");
            Path graph = Files.writeString(dir.resolve("plan.dot"), dot, StandardCharsets.UTF_8);
            Path svg = dir.resolve("plan.svg");
            Path errors = dir.resolve("errors.txt");
            Process process;
            try {
                process = new ProcessBuilder(command, "-Tsvg").redirectInput(graph.toFile()).redirectOutput(svg.toFile())
                        .redirectError(errors.toFile()).start();
            } catch (IOException e) {
                throw new QuiverException(ErrorCode.NOT_SUPPORTED, NOT_INSTALLED);
            }
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new QuiverException(ErrorCode.SOURCE_ERROR, "Graphviz's dot did not finish within " + TIMEOUT_SECONDS + " s");
            }
            if (process.exitValue() != 0) {
                throw new QuiverException(ErrorCode.SOURCE_ERROR, "Graphviz's dot failed (exit " + process.exitValue() + "): "
                        + Files.readString(errors, StandardCharsets.UTF_8).strip());
            }
            return Files.readString(svg, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "Cannot render the plan with Graphviz: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QuiverException(ErrorCode.QUERY_CANCELLED, "Interrupted while Graphviz's dot ran", e);
        } finally {
            deleteQuietly(dir);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (var files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a temporary directory left behind is not worth failing the statement for
        }
    }
}
