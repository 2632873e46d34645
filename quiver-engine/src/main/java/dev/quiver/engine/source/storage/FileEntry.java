package dev.quiver.engine.source.storage;

import static java.util.Objects.requireNonNull;

/**
 * A file or a directory found in a {@link Storage}.
 *
 * @param location where it is
 * @param size a file's size in bytes (0 for a directory)
 * @param directory whether it is a directory (on an object store: a prefix that keys continue below)
 */
public record FileEntry(Location location, long size, boolean directory) {
    public FileEntry {
        requireNonNull(location, "location is null");
    }

    public static FileEntry file(Location location, long size) {
        return new FileEntry(location, size, false);
    }

    public static FileEntry directory(Location location) {
        return new FileEntry(location, 0, true);
    }

    /** Whether the name starts with {@code .} or {@code _}: Spark's and DuckDB's marker files and {@code _temporary} directories. */
    public boolean hidden() {
        String name = location.fileName();
        return name.startsWith(".") || name.startsWith("_");
    }
}
