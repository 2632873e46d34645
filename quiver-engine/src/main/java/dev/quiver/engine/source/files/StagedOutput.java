package dev.quiver.engine.source.files;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * Output that appears at its path complete or not at all: it is written under a hidden staging
 * name beside the target ({@code .name.tmp-1a2b3c4d}, which table readers skip) and renamed into
 * place by {@link #commit()}; {@link #abort()} (or {@link #close()} before a commit) deletes it.
 * The checks that can fail before any data is written (a missing or unwritable directory, a
 * directory that is not empty) run when the output is opened.
 */
public final class StagedOutput implements AutoCloseable {
    /** What committing a directory does to a directory already at the target path. */
    public enum Overwrite {
        /** Refuse (when opening) unless it is empty. */
        REFUSE,
        /** Replace it as a whole. */
        OVERWRITE,
        /** Move the new files into it, replacing files of the same name and keeping the others. */
        OVERWRITE_OR_IGNORE
    }

    private final Path target;
    private final Path staging;
    private final boolean directory;
    private final Overwrite overwrite;
    private boolean done;

    private StagedOutput(Path target, Path staging, boolean directory, Overwrite overwrite) {
        this.target = target;
        this.staging = staging;
        this.directory = directory;
        this.overwrite = overwrite;
    }

    /** One file at {@code target}, replacing a file there; its directory must exist and be writable. */
    public static StagedOutput file(Path target) {
        Path absolute = checkFile(target);
        Path staging = stagingPath(absolute, "tmp");
        try {
            Files.createFile(staging);
        } catch (IOException e) {
            throw cannotWrite(absolute.getParent(), e);
        }
        return new StagedOutput(absolute, staging, false, Overwrite.REFUSE);
    }

    /** A directory tree at {@code target}; its parent must exist and be writable. */
    public static StagedOutput directory(Path target, Overwrite overwrite) {
        Path absolute = checkDirectory(target, overwrite);
        Path staging = stagingPath(absolute, "tmp");
        try {
            Files.createDirectory(staging);
        } catch (IOException e) {
            throw cannotWrite(absolute.getParent(), e);
        }
        return new StagedOutput(absolute, staging, true, overwrite);
    }

    /**
     * The checks of {@link #file} without writing anything, so that a statement can fail before its
     * query runs. Returns the absolute target.
     */
    public static Path checkFile(Path target) {
        Path absolute = requireNonNull(target, "target is null").toAbsolutePath().normalize();
        if (Files.isDirectory(absolute)) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, absolute + " is a directory; name a file, or write a directory with PARTITION_BY");
        }
        checkWritableParent(absolute);
        return absolute;
    }

    /** The checks of {@link #directory} without writing anything. Returns the absolute target. */
    public static Path checkDirectory(Path target, Overwrite overwrite) {
        Path absolute = requireNonNull(target, "target is null").toAbsolutePath().normalize();
        requireNonNull(overwrite, "overwrite is null");
        if (Files.exists(absolute) && !Files.isDirectory(absolute)) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, absolute + " is a file; a partitioned COPY writes a directory");
        }
        checkWritableParent(absolute);
        if (overwrite == Overwrite.REFUSE && !isEmptyOrMissing(absolute)) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Directory " + absolute
                    + " is not empty; add OVERWRITE to replace it, or OVERWRITE_OR_IGNORE to write into it");
        }
        return absolute;
    }

    private static void checkWritableParent(Path absolute) {
        Path parent = absolute.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot write " + absolute + ": directory " + parent + " does not exist");
        }
        if (!Files.isWritable(parent)) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot write " + absolute + ": directory " + parent + " is not writable (permission denied)");
        }
    }

    /** Where to write: the staging file, or the staging directory to fill. */
    public Path path() {
        return staging;
    }

    /** The path the output appears at once committed. */
    public Path target() {
        return target;
    }

    /** Moves the output into place. */
    public void commit() {
        if (done) {
            throw new IllegalStateException("output " + target + " was already committed or aborted");
        }
        try {
            if (!directory) {
                move(staging, target);
            } else if (isEmptyOrMissing(target)) {
                Files.deleteIfExists(target);
                move(staging, target);
            } else if (overwrite == Overwrite.OVERWRITE) {
                replaceDirectory();
            } else if (overwrite == Overwrite.OVERWRITE_OR_IGNORE) {
                mergeInto(target);
            } else {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Directory " + target + " was filled while the COPY ran; nothing was written");
            }
            done = true;
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot move " + staging + " to " + target + ": " + describe(e), e);
        } finally {
            if (!done) {
                abort();
            }
        }
    }

    private void replaceDirectory() throws IOException {
        Path old = stagingPath(target, "old");
        move(target, old);
        try {
            move(staging, target);
        } catch (IOException e) {
            move(old, target);
            throw e;
        }
        deleteTree(old);
    }

    private void mergeInto(Path existing) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(staging)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        for (Path file : files) {
            Path destination = existing.resolve(staging.relativize(file).toString());
            Files.createDirectories(destination.getParent());
            Files.move(file, destination, StandardCopyOption.REPLACE_EXISTING);
        }
        deleteTree(staging);
    }

    /** Deletes what was written; does nothing once committed. Idempotent. */
    public void abort() {
        if (done) {
            return;
        }
        done = true;
        try {
            deleteTree(staging);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot delete the unfinished output " + staging + ": " + describe(e), e);
        }
    }

    @Override
    public void close() {
        abort();
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static boolean isEmptyOrMissing(Path dir) {
        if (!Files.isDirectory(dir)) {
            return true;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot list directory " + dir + ": " + describe(e), e);
        }
    }

    /** Deletes a file or a directory tree; a missing path is fine. */
    public static void deleteTree(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path entry : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(entry);
            }
        }
    }

    private static Path stagingPath(Path target, String kind) {
        String random = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        return target.resolveSibling("." + target.getFileName() + "." + kind + "-" + random);
    }

    private static QuiverException cannotWrite(Path directory, IOException e) {
        if (e instanceof NoSuchFileException) {
            return new QuiverException(ErrorCode.SOURCE_ERROR, "cannot write to " + directory + ": the directory does not exist", e);
        }
        return new QuiverException(ErrorCode.SOURCE_ERROR, "cannot write to directory " + directory + ": " + describe(e), e);
    }

    /** An I/O failure as a user reads it: "permission denied" rather than the exception's bare path. */
    private static String describe(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "a file of that name exists";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
