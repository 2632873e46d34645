package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The users a server accepts and their salted password hashes, one per line: {@code name:HASH}
 * ({@link PasswordHash}, as {@code quiver passwd} writes it); blank lines and lines starting with
 * {@code #} are skipped.
 */
public final class UsersFile {
    private final Map<String, PasswordHash> users;

    private UsersFile(Map<String, PasswordHash> users) {
        this.users = Map.copyOf(users);
    }

    public static UsersFile read(Path file) {
        requireNonNull(file, "file is null");
        Map<String, PasswordHash> users = new LinkedHashMap<>();
        try {
            int number = 0;
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                number++;
                String trimmed = line.strip();
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                int colon = trimmed.indexOf(':');
                if (colon <= 0) {
                    throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, file + " line " + number + ": expected name:" + PasswordHash.SCHEME + ":...");
                }
                users.put(trimmed.substring(0, colon), PasswordHash.parse(trimmed.substring(colon + 1)));
            }
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "Cannot read the users file " + file + ": " + e.getMessage(), e);
        }
        if (users.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "The users file " + file + " names no user (add one with quiver passwd)");
        }
        return new UsersFile(users);
    }

    /** The line for {@code user} with a new hash of {@code password}. */
    public static String line(String user, char[] password) {
        if (user.isEmpty() || user.contains(":") || user.strip().length() != user.length()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "A user name is not empty and holds no ':' or surrounding blanks: '" + user + "'");
        }
        return user + ":" + PasswordHash.create(password);
    }

    /** Whether {@code user} exists and {@code password} is theirs. */
    boolean verify(String user, char[] password) {
        PasswordHash hash = users.get(user);
        return hash != null && hash.matches(password);
    }
}
