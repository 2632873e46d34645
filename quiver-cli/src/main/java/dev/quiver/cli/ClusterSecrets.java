package dev.quiver.cli;

import dev.quiver.distributed.protocol.ClusterSecret;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads secrets from files ({@code --cluster-secret-file}, {@code --token-file}): a secret on the command line would show in {@code ps}. */
final class ClusterSecrets {
    private ClusterSecrets() {}

    static ClusterSecret read(Path file) {
        return ClusterSecret.of(text(file));
    }

    /** The file's text without surrounding blanks. */
    static String text(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "Cannot read the secret file " + file + ": " + e.getMessage(), e);
        }
    }
}
