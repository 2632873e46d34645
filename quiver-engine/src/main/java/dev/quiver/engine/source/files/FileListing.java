package dev.quiver.engine.source.files;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds the data files of a table location, as DuckDB's {@code read_parquet} and {@code FROM 'path'}
 * do: a file is itself; a directory is every file below it (at any depth) with one of the format's
 * extensions; a pattern with {@code *}, {@code ?}, {@code [..]} or {@code {a,b}} is matched one path
 * segment at a time, where a segment {@code **} matches any number of directories (none included).
 * Names starting with {@code .} or {@code _} (Spark's and DuckDB's marker files, {@code _temporary}
 * directories) are skipped unless the pattern names them literally. The files of each location are
 * sorted by path; several locations are listed in the order given, a file found twice once.
 */
public final class FileListing {
    private FileListing() {}

    /** One data file: its path (as the location spelled it) and its size in bytes. */
    public record ListedFile(Path path, long bytes) {}

    /**
     * The data files of {@code locations}.
     *
     * @param extensions the lower-case extensions (with the dot) that a directory's files must have
     * @param formatName the format, for messages ({@code Parquet}, {@code CSV})
     * @throws QuiverException SOURCE_ERROR naming the location for a missing path, a pattern that
     *     matches no file, or a directory without such files
     */
    public static List<ListedFile> list(List<String> locations, Set<String> extensions, String formatName) {
        if (locations.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "No " + formatName + " file given");
        }
        Set<Path> found = new LinkedHashSet<>();
        for (String location : locations) {
            found.addAll(paths(location, extensions, formatName));
        }
        List<ListedFile> files = new ArrayList<>(found.size());
        for (Path path : found) {
            files.add(new ListedFile(path, DataFiles.size(path)));
        }
        return files;
    }

    /** Whether {@code location} is a pattern rather than a path. */
    public static boolean isPattern(String location) {
        for (int i = 0; i < location.length(); i++) {
            char c = location.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == '{') {
                return true;
            }
        }
        return false;
    }

    private static Set<Path> paths(String location, Set<String> extensions, String formatName) {
        if (location.isBlank()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "The " + formatName + " path is empty");
        }
        if (isPattern(location)) {
            Set<Path> matched = matches(location);
            if (matched.isEmpty()) {
                throw new QuiverException(ErrorCode.SOURCE_ERROR, "No files match the pattern '" + location + "'");
            }
            return matched;
        }
        Path path = Path.of(location);
        if (!Files.exists(path)) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, formatName + " path " + path + " does not exist");
        }
        if (!Files.isDirectory(path)) {
            if (!Files.isReadable(path)) {
                throw new QuiverException(ErrorCode.SOURCE_ERROR, formatName + " file " + path + " is not readable");
            }
            return Set.of(path);
        }
        Set<Path> files = new TreeSet<>();
        walkAll(path, files, extensions);
        if (files.isEmpty()) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "directory " + path + " holds no " + formatName + " files ("
                    + String.join(", ", new TreeSet<>(extensions)) + ")");
        }
        return files;
    }

    private static Set<Path> matches(String pattern) {
        String[] segments = pattern.split("/+", -1);
        int first = 0;
        while (first < segments.length && !isPattern(segments[first])) {
            first++;
        }
        String prefix = String.join("/", Arrays.copyOfRange(segments, 0, first));
        Path base = pattern.startsWith("/") && prefix.isEmpty() ? Path.of("/") : Path.of(prefix.isEmpty() ? "." : prefix);
        boolean relativeDot = prefix.isEmpty() && !pattern.startsWith("/");
        Set<Path> found = new TreeSet<>();
        if (Files.isDirectory(base)) {
            walk(base, List.of(segments).subList(first, segments.length), found);
        }
        if (!relativeDot) {
            return found;
        }
        // a pattern without a directory part: paths as the user wrote them, without "./"
        Set<Path> stripped = new TreeSet<>();
        found.forEach(path -> stripped.add(base.relativize(path)));
        return stripped;
    }

    /** Adds the files below {@code dir} that match {@code segments}. */
    private static void walk(Path dir, List<String> segments, Set<Path> found) {
        if (segments.isEmpty()) {
            return;
        }
        String segment = segments.get(0);
        List<String> rest = segments.subList(1, segments.size());
        if (segment.equals("**")) {
            if (rest.isEmpty()) {
                walkAll(dir, found, Set.of());
                return;
            }
            walk(dir, rest, found);
            for (Path child : children(dir)) {
                if (Files.isDirectory(child) && !hidden(child)) {
                    walk(child, segments, found);
                }
            }
            return;
        }
        if (!isPattern(segment)) {
            Path child = dir.resolve(segment);
            if (rest.isEmpty() ? Files.isRegularFile(child) : Files.isDirectory(child)) {
                if (rest.isEmpty()) {
                    found.add(child);
                } else {
                    walk(child, rest, found);
                }
            }
            return;
        }
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + segment);
        boolean literalHidden = segment.startsWith(".") || segment.startsWith("_");
        for (Path child : children(dir)) {
            if ((hidden(child) && !literalHidden) || !matcher.matches(child.getFileName())) {
                continue;
            }
            if (rest.isEmpty()) {
                if (Files.isRegularFile(child)) {
                    found.add(child);
                }
            } else if (Files.isDirectory(child)) {
                walk(child, rest, found);
            }
        }
    }

    /** Every file below {@code dir} (at any depth) with one of {@code extensions} (any, when empty). */
    private static void walkAll(Path dir, Set<Path> found, Set<String> extensions) {
        for (Path child : children(dir)) {
            if (hidden(child)) {
                continue;
            }
            if (Files.isDirectory(child)) {
                walkAll(child, found, extensions);
            } else if (Files.isRegularFile(child)
                    && (extensions.isEmpty() || extensions.contains(DataFiles.extension(child.getFileName().toString())))) {
                found.add(child);
            }
        }
    }

    private static boolean hidden(Path path) {
        String name = path.getFileName().toString();
        return name.startsWith(".") || name.startsWith("_");
    }

    private static List<Path> children(Path dir) {
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            entries.forEach(children::add);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot list directory " + dir + ": " + e.getMessage(), e);
        }
        children.sort(null);
        return children;
    }
}
