package dev.quiver.distributed.protocol;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret a cluster's coordinators and workers share (as Trino's internal shared secret): every
 * control and data call between them carries a token derived from it in the {@value #HEADER}
 * header, and a worker started with a secret refuses a call without that token with
 * UNAUTHENTICATED. The token is an HMAC-SHA256 of a fixed label under the secret, so the secret
 * itself never travels; TLS keeps the token from being read on the way.
 */
public final class ClusterSecret {
    /** The call header that carries the token. */
    public static final String HEADER = "x-quiver-cluster-token";
    private static final String LABEL = "quiver cluster call v1";
    private static final int MINIMUM_LENGTH = 16;

    private final String token;

    private ClusterSecret(String token) {
        this.token = token;
    }

    /** A secret from its text (e.g. a file's first line); at least {@value #MINIMUM_LENGTH} characters. */
    public static ClusterSecret of(String secret) {
        requireNonNull(secret, "secret is null");
        String trimmed = secret.strip();
        if (trimmed.length() < MINIMUM_LENGTH) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "A cluster secret needs at least " + MINIMUM_LENGTH
                    + " characters (e.g. openssl rand -hex 32 > cluster.secret), not " + trimmed.length());
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(trimmed.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return new ClusterSecret(Base64.getEncoder().encodeToString(mac.doFinal(LABEL.getBytes(StandardCharsets.UTF_8))));
        } catch (GeneralSecurityException e) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "HMAC-SHA256 is not available in this JVM: " + e.getMessage(), e);
        }
    }

    /** The token calls carry. */
    public String token() {
        return token;
    }

    /** Whether {@code presented} (a call's header, maybe absent) is this secret's token; in constant time. */
    public boolean accepts(String presented) {
        return presented != null && MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8), presented.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return "ClusterSecret[hidden]";
    }
}
