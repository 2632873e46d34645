package dev.quiver.distributed.coordinator.discovery;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * {@code file:PATH}: a text file with one worker {@code host:port} per line (blank lines and
 * {@code #} comments ignored, a worker listed twice counted once). The file is read again at every
 * {@link #resolve()}, that is before every query: it is small, and reading it is the one way to see
 * every change (a modification time can stay the same across two writes within its granularity).
 * Replace it atomically (write a new file, then rename it over the old one) so that a query never
 * reads half a file.
 */
public final class FileWorkerResolver implements WorkerResolver {
    private final Path path;

    public FileWorkerResolver(Path path) {
        this.path = requireNonNull(path, "path is null");
    }

    @Override
    public List<WorkerAddress> resolve() {
        List<String> lines;
        try {
            lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "the worker list " + path + " does not exist (" + describe() + ")", e);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "cannot read the worker list " + path + ": " + e.getMessage(), e);
        }
        LinkedHashSet<WorkerAddress> workers = new LinkedHashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int comment = line.indexOf('#');
            String text = (comment >= 0 ? line.substring(0, comment) : line).trim();
            if (text.isEmpty()) {
                continue;
            }
            try {
                workers.add(WorkerAddress.parse(text));
            } catch (QuiverException e) {
                throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "line " + (i + 1) + " of the worker list " + path + ": " + e.getMessage(), e);
            }
        }
        return List.copyOf(new ArrayList<>(workers));
    }

    @Override
    public String describe() {
        return "file:" + path;
    }

    @Override
    public String toString() {
        return describe();
    }
}
