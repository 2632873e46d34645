package dev.quiver.engine.spill;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The spill files of one execution (a local query, or one task on a worker): a subdirectory of
 * {@code spill_directory}, created when the first operator spills and deleted with every file left
 * in it when the execution's {@link dev.quiver.engine.execution.TaskContext} closes, however the
 * query ended. Operators delete their own files as soon as they have read them back; closing is
 * what makes a failed or cancelled query leave nothing behind.
 *
 * <p>Thread-safe: the partitions of an execution spill concurrently.
 */
public final class SpillDirectory implements AutoCloseable {
    private final Path parent;
    private final String name;
    private final CompressionCodec codec;
    private final FileOpener opener;
    private final Set<Path> live = new LinkedHashSet<>();
    private Path directory;
    private long nextFile;
    private boolean closed;

    /** How a spill file is opened for writing; tests substitute one that fails as a full disk does. */
    @FunctionalInterface
    public interface FileOpener {
        FileChannel openForWrite(Path path) throws IOException;

        FileOpener DEFAULT = path -> FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    /**
     * @param parent the configured spill directory (created if missing)
     * @param executionName the execution's name, e.g. {@code q12}, which the subdirectory's name starts with
     * @param codec the codec IPC bodies are compressed with
     */
    public SpillDirectory(Path parent, String executionName, CompressionCodec codec, FileOpener opener) {
        this.parent = requireNonNull(parent, "parent is null");
        this.name = "quiver-spill-" + sanitize(requireNonNull(executionName, "executionName is null")) + "-" + UUID.randomUUID();
        this.codec = requireNonNull(codec, "codec is null");
        this.opener = requireNonNull(opener, "opener is null");
    }

    /** A new spill file for {@code consumer} (an operator partition, e.g. {@code SortExec[partition=1]}), open for writing. */
    public SpillWriter newFile(String consumer, Schema schema) {
        Path path;
        synchronized (this) {
            if (closed) {
                throw new QuiverException(ErrorCode.QUERY_CANCELLED, "the query's spill directory is already closed: the query has ended");
            }
            path = directory().resolve(sanitize(consumer) + "-" + (nextFile++) + ".arrow");
            live.add(path);
        }
        try {
            return new SpillWriter(this, path, opener.openForWrite(path), schema, codec);
        } catch (IOException | RuntimeException e) {
            delete(path);
            throw failure("write spill file " + path, e);
        }
    }

    /** Deletes one file; a file already gone is fine. */
    void delete(Path path) {
        synchronized (this) {
            live.remove(path);
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw failure("delete spill file " + path, e);
        }
    }

    private Path directory() {
        if (directory == null) {
            Path candidate = parent.resolve(name);
            try {
                Files.createDirectories(candidate);
            } catch (IOException | RuntimeException e) {
                throw failure("create the spill directory " + candidate + " (spill_directory=" + parent + ")", e);
            }
            directory = candidate;
        }
        return directory;
    }

    /** A user-actionable error for an I/O failure while spilling. */
    static QuiverException failure(String action, Exception cause) {
        String reason = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        if (cause instanceof java.nio.file.FileSystemException fileSystem && fileSystem.getReason() != null) {
            reason = fileSystem.getReason();
        }
        return new QuiverException(ErrorCode.SPILL_FAILED, "Could not " + action + ": " + reason
                + ". Free space there, set spill_directory to a directory with room, or raise memory_limit", cause);
    }

    /** Deletes every file left and the subdirectory; later {@link #newFile} calls fail. */
    @Override
    public void close() {
        List<Path> left;
        Path made;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            left = List.copyOf(live);
            live.clear();
            made = directory;
        }
        QuiverException first = null;
        for (Path path : left) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                first = first != null ? first : failure("delete spill file " + path, e);
            }
        }
        if (made != null) {
            try {
                Files.deleteIfExists(made);
            } catch (IOException e) {
                first = first != null ? first : failure("delete the spill directory " + made, e);
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static String sanitize(String text) {
        return text.replaceAll("[^A-Za-z0-9._=-]", "_");
    }
}
