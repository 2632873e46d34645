package dev.quiver.distributed.protocol;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How the calls between a cluster's coordinators and workers are protected: the cluster secret's
 * token on every call ({@link ClusterSecret}), and TLS. With TLS, a worker serves with
 * {@code certificate} and {@code privateKey} (PEM; the key in PKCS#8), and every caller (the
 * coordinator, the workers reading each other's data) trusts the PEM certificates in {@code trusted}
 * (the workers' certificate, or their CA's); a coordinator needs only {@code trusted}.
 *
 * @param secret the cluster secret, if any
 * @param certificate what a worker serves TLS with (absent: the worker serves plain text)
 * @param privateKey the key of {@code certificate}
 * @param trusted what callers trust (absent: they connect in plain text)
 */
public record ClusterSecurity(Optional<ClusterSecret> secret, Optional<Path> certificate, Optional<Path> privateKey, Optional<Path> trusted) {
    /** No secret, plain text. */
    public static final ClusterSecurity NONE = new ClusterSecurity(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    public ClusterSecurity {
        requireNonNull(secret, "secret is null");
        requireNonNull(certificate, "certificate is null");
        requireNonNull(privateKey, "privateKey is null");
        requireNonNull(trusted, "trusted is null");
        if (certificate.isPresent() != privateKey.isPresent()) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "A worker's TLS needs both a certificate and its private key");
        }
        for (Optional<Path> file : java.util.List.of(certificate, privateKey, trusted)) {
            if (file.isPresent() && !Files.isReadable(file.get())) {
                throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "Cannot read the TLS file " + file.get());
            }
        }
    }

    public ClusterSecurity withSecret(ClusterSecret clusterSecret) {
        return new ClusterSecurity(Optional.of(clusterSecret), certificate, privateKey, trusted);
    }

    /** Workers serve TLS with {@code serverCertificate} and {@code key}; callers trust {@code trustedCertificates}. */
    public ClusterSecurity withTls(Path serverCertificate, Path key, Path trustedCertificates) {
        return new ClusterSecurity(secret, Optional.of(serverCertificate), Optional.of(key), Optional.of(trustedCertificates));
    }

    /** Callers connect with TLS, trusting {@code trustedCertificates} (a coordinator of workers that serve TLS). */
    public ClusterSecurity trusting(Path trustedCertificates) {
        return new ClusterSecurity(secret, certificate, privateKey, Optional.of(trustedCertificates));
    }
}
