package dev.quiver.engine.source.storage;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a file or directory is: a local path as written ({@code data/lineitem.parquet},
 * {@code /tmp/t}) or a URI of an object store ({@code s3://bucket/key}). A location is a string,
 * not a {@link Path}: {@code Path.of("s3://b/k")} would collapse the {@code //}. Local locations
 * are normalized as {@link Path} normalizes them (no trailing or doubled {@code /}), so that a
 * file listed twice is the same location.
 *
 * @param uri the location as text
 */
public record Location(String uri) implements Comparable<Location> {
    private static final Pattern SCHEME = Pattern.compile("([a-zA-Z][a-zA-Z0-9+.-]*)://([^/]*)(/.*)?");

    public Location {
        requireNonNull(uri, "uri is null");
        if (uri.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "a file location is empty");
        }
    }

    /** The location {@code text} names: a URI with a scheme, else a local path. */
    public static Location of(String text) {
        requireNonNull(text, "text is null");
        if (SCHEME.matcher(text).matches()) {
            return new Location(text);
        }
        return new Location(Path.of(text).toString());
    }

    /** The location of a local path. */
    public static Location of(Path path) {
        return new Location(requireNonNull(path, "path is null").toString());
    }

    /** Whether {@code text} starts with a scheme ({@code s3://...}). */
    public static boolean hasScheme(String text) {
        return SCHEME.matcher(text).matches();
    }

    /** The scheme in lower case ({@code s3}), empty for a local path. */
    public Optional<String> scheme() {
        Matcher matcher = SCHEME.matcher(uri);
        return matcher.matches() ? Optional.of(matcher.group(1).toLowerCase(Locale.ROOT)) : Optional.empty();
    }

    public boolean isLocal() {
        return scheme().isEmpty();
    }

    /** The local path; an internal error for a remote location (callers check {@link #isLocal}). */
    public Path path() {
        if (!isLocal()) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, uri + " is not a local path");
        }
        return Path.of(uri);
    }

    /** The authority of a URI: an S3 location's bucket. Empty for a local path. */
    public String authority() {
        Matcher matcher = SCHEME.matcher(uri);
        return matcher.matches() ? matcher.group(2) : "";
    }

    /** The path of a URI after its authority, without the leading {@code /} (an S3 key); a local path as it is. */
    public String key() {
        Matcher matcher = SCHEME.matcher(uri);
        if (!matcher.matches()) {
            return uri;
        }
        String path = matcher.group(3);
        return path == null ? "" : path.substring(1);
    }

    /** The last name: the file's or directory's own name. */
    public String fileName() {
        if (isLocal()) {
            Path name = Path.of(uri).getFileName();
            return name == null ? uri : name.toString();
        }
        String key = key();
        String trimmed = key.endsWith("/") ? key.substring(0, key.length() - 1) : key;
        return trimmed.substring(trimmed.lastIndexOf('/') + 1);
    }

    /** The location of {@code name} inside this directory. */
    public Location resolve(String name) {
        requireNonNull(name, "name is null");
        if (isLocal()) {
            return of(Path.of(uri).resolve(name));
        }
        return new Location(uri.endsWith("/") ? uri + name : uri + "/" + name);
    }

    /** The names of the directories this location is inside, outermost first (for an S3 key, below the bucket). */
    public List<String> parentNames() {
        List<String> names = new ArrayList<>();
        if (isLocal()) {
            Path parent = Path.of(uri).getParent();
            if (parent != null) {
                parent.forEach(segment -> names.add(segment.toString()));
            }
            return names;
        }
        String[] segments = key().split("/+");
        for (int i = 0; i < segments.length - 1; i++) {
            if (!segments[i].isEmpty()) {
                names.add(segments[i]);
            }
        }
        return names;
    }

    @Override
    public int compareTo(Location other) {
        return uri.compareTo(other.uri);
    }

    @Override
    public String toString() {
        return uri;
    }
}
