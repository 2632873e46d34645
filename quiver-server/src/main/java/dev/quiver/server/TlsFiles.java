package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A server's TLS identity: a PEM certificate (or chain) and its PEM private key in PKCS#8
 * ({@code -----BEGIN PRIVATE KEY-----}; {@code openssl pkcs8 -topk8 -nocrypt} converts others).
 */
public record TlsFiles(Path certificate, Path privateKey) {
    public TlsFiles {
        requireNonNull(certificate, "certificate is null");
        requireNonNull(privateKey, "privateKey is null");
        for (Path file : new Path[] {certificate, privateKey}) {
            if (!Files.isReadable(file)) {
                throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "Cannot read the TLS file " + file);
            }
        }
    }
}
