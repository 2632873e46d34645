package dev.quiver.engine.source.files;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/** Lists the data files of a table stored as one file or as a directory of files. */
public final class DataFiles {
    private DataFiles() {}

    /**
     * {@code path} itself when it is a file; else the files directly inside the directory whose
     * names end with one of {@code extensions} (names starting with {@code .} or {@code _} are
     * ignored, as Spark and DuckDB write such marker files), sorted by name.
     *
     * @throws QuiverException SOURCE_ERROR for a missing path or a directory without such files
     */
    public static List<Path> list(Path path, Set<String> extensions, String formatName) {
        if (!Files.exists(path)) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, formatName + " path " + path + " does not exist");
        }
        if (!Files.isDirectory(path)) {
            if (!Files.isReadable(path)) {
                throw new QuiverException(ErrorCode.SOURCE_ERROR, formatName + " file " + path + " is not readable");
            }
            return List.of(path);
        }
        try (Stream<Path> entries = Files.list(path)) {
            List<Path> files = entries
                    .filter(Files::isRegularFile)
                    .filter(file -> isDataFile(file, extensions))
                    .sorted()
                    .toList();
            if (files.isEmpty()) {
                throw new QuiverException(ErrorCode.SOURCE_ERROR,
                        "directory " + path + " holds no " + formatName + " files (" + String.join(", ", extensions.stream().sorted().toList()) + ")");
            }
            return files;
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot list directory " + path + ": " + e.getMessage(), e);
        }
    }

    private static boolean isDataFile(Path file, Set<String> extensions) {
        String name = file.getFileName().toString();
        if (name.startsWith(".") || name.startsWith("_")) {
            return false;
        }
        return extensions.contains(extension(name));
    }

    /** The lower-case extension of a file name with its dot, e.g. {@code .csv}; empty when there is none. */
    public static String extension(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return dot <= 0 ? "" : fileName.substring(dot).toLowerCase(Locale.ROOT);
    }

    /** The size of a file, as a source error naming it when it cannot be read. */
    public static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot read the size of " + file + ": " + e.getMessage(), e);
        }
    }
}
