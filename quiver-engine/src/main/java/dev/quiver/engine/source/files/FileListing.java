package dev.quiver.engine.source.files;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.storage.FileEntry;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storage;
import dev.quiver.engine.source.storage.Storages;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Finds the data files of a table location, as DuckDB's {@code read_parquet} and {@code FROM 'path'}
 * do: a file is itself; a directory is every file below it (at any depth) with one of the format's
 * extensions; a pattern with {@code *}, {@code ?}, {@code [..]} or {@code {a,b}} is matched one path
 * segment at a time, where a segment {@code **} matches any number of directories (none included).
 * Names starting with {@code .} or {@code _} (Spark's and DuckDB's marker files, {@code _temporary}
 * directories) are skipped unless the pattern names them literally. The files of each location are
 * sorted by location; several locations are listed in the order given, a file found twice once.
 * Locations are local paths or object-store URIs ({@code s3://bucket/prefix/*.parquet}), listed
 * through their {@link Storage}.
 */
public final class FileListing {
    private FileListing() {}

    /**
     * The data files of {@code locations}.
     *
     * @param extensions the lower-case extensions (with the dot) that a directory's files must have
     * @param formatName the format, for messages ({@code Parquet}, {@code CSV})
     * @throws QuiverException SOURCE_ERROR naming the location for a missing path, a pattern that
     *     matches no file, or a directory without such files
     */
    public static List<FileEntry> list(Storages storages, List<String> locations, Set<String> extensions, String formatName) {
        requireNonNull(storages, "storages is null");
        if (locations.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "No " + formatName + " file given");
        }
        Map<Location, FileEntry> found = new LinkedHashMap<>();
        for (String location : locations) {
            for (FileEntry file : files(storages, location, extensions, formatName)) {
                found.putIfAbsent(file.location(), file);
            }
        }
        return List.copyOf(found.values());
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

    private static List<FileEntry> files(Storages storages, String text, Set<String> extensions, String formatName) {
        if (text.isBlank()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "The " + formatName + " path is empty");
        }
        if (isPattern(text)) {
            List<FileEntry> matched = matches(storages, text);
            if (matched.isEmpty()) {
                throw new QuiverException(ErrorCode.SOURCE_ERROR, "No files match the pattern '" + text + "'");
            }
            return matched;
        }
        Location location = Location.of(text);
        Storage storage = storages.of(location);
        Optional<FileEntry> entry = storage.stat(location);
        if (entry.isEmpty()) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, formatName + " path " + location + " does not exist");
        }
        if (!entry.get().directory()) {
            return List.of(entry.get());
        }
        List<FileEntry> files = storage.listAll(location).stream()
                .filter(file -> extensions.contains(DataFiles.extension(file.location().fileName())))
                .toList();
        if (files.isEmpty()) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "directory " + location + " holds no " + formatName + " files ("
                    + String.join(", ", new TreeSet<>(extensions)) + ")");
        }
        return files;
    }

    private static List<FileEntry> matches(Storages storages, String pattern) {
        // a URI's scheme and authority (s3://bucket) are the root the rest is matched below
        String root = "";
        String rest = pattern;
        if (Location.hasScheme(pattern)) {
            int slash = pattern.indexOf('/', pattern.indexOf("://") + 3);
            root = slash < 0 ? pattern : pattern.substring(0, slash);
            rest = slash < 0 ? "" : pattern.substring(slash + 1);
        }
        String[] segments = rest.split("/+", -1);
        int first = 0;
        while (first < segments.length && !isPattern(segments[first])) {
            first++;
        }
        String prefix = String.join("/", Arrays.copyOfRange(segments, 0, first));
        Location base;
        boolean relativeDot = false;
        if (!root.isEmpty()) {
            base = new Location(root + "/" + prefix);
        } else if (pattern.startsWith("/") && prefix.isEmpty()) {
            base = Location.of("/");
        } else {
            base = Location.of(prefix.isEmpty() ? "." : prefix);
            relativeDot = prefix.isEmpty();
        }
        Storage storage = storages.of(base);
        Map<Location, FileEntry> found = new TreeMap<>();
        Optional<FileEntry> start = storage.stat(base);
        if (start.isPresent() && start.get().directory()) {
            walk(storage, base, List.of(segments).subList(first, segments.length), found);
        }
        if (!relativeDot) {
            return List.copyOf(found.values());
        }
        // a pattern without a directory part: paths as the user wrote them, without "./"
        Path dot = base.path();
        List<FileEntry> stripped = new ArrayList<>();
        found.values().forEach(file -> stripped.add(FileEntry.file(Location.of(dot.relativize(file.location().path())), file.size())));
        stripped.sort((a, b) -> a.location().compareTo(b.location()));
        return stripped;
    }

    /** Adds the files below {@code dir} that match {@code segments}. */
    private static void walk(Storage storage, Location dir, List<String> segments, Map<Location, FileEntry> found) {
        if (segments.isEmpty()) {
            return;
        }
        String segment = segments.get(0);
        List<String> rest = segments.subList(1, segments.size());
        if (segment.equals("**")) {
            if (rest.isEmpty()) {
                storage.listAll(dir).forEach(file -> found.put(file.location(), file));
                return;
            }
            walk(storage, dir, rest, found);
            for (FileEntry child : storage.list(dir)) {
                if (child.directory() && !child.hidden()) {
                    walk(storage, child.location(), segments, found);
                }
            }
            return;
        }
        if (!isPattern(segment)) {
            Optional<FileEntry> child = storage.stat(dir.resolve(segment));
            if (child.isPresent() && child.get().directory() != rest.isEmpty()) {
                if (rest.isEmpty()) {
                    found.put(child.get().location(), child.get());
                } else {
                    walk(storage, child.get().location(), rest, found);
                }
            }
            return;
        }
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + segment);
        boolean literalHidden = segment.startsWith(".") || segment.startsWith("_");
        for (FileEntry child : storage.list(dir)) {
            if ((child.hidden() && !literalHidden) || !matcher.matches(Path.of(child.location().fileName()))) {
                continue;
            }
            if (rest.isEmpty()) {
                if (!child.directory()) {
                    found.put(child.location(), child);
                }
            } else if (child.directory()) {
                walk(storage, child.location(), rest, found);
            }
        }
    }
}
