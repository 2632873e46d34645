package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A salted password hash as a users file keeps it: {@code pbkdf2-sha256:ITERATIONS:SALT:HASH}, the
 * salt and hash in Base64 (PBKDF2 with HMAC-SHA256, as the JDK provides it; 600 000 iterations by
 * default, OWASP's advice for it).
 */
public record PasswordHash(int iterations, byte[] salt, byte[] hash) {
    static final String SCHEME = "pbkdf2-sha256";
    private static final int DEFAULT_ITERATIONS = 600_000;
    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;

    public PasswordHash {
        requireNonNull(salt, "salt is null");
        requireNonNull(hash, "hash is null");
        salt = salt.clone();
        hash = hash.clone();
    }

    /** A new hash of {@code password} with a random salt. */
    public static PasswordHash create(char[] password) {
        byte[] salt = new byte[SALT_BYTES];
        new SecureRandom().nextBytes(salt);
        return new PasswordHash(DEFAULT_ITERATIONS, salt, derive(password, salt, DEFAULT_ITERATIONS));
    }

    /** Reads the text {@link #toString()} writes. */
    public static PasswordHash parse(String text) {
        String[] parts = text.split(":", -1);
        if (parts.length != 4 || !parts[0].equals(SCHEME)) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "Not a password hash (" + SCHEME + ":ITERATIONS:SALT:HASH): " + text);
        }
        try {
            return new PasswordHash(Integer.parseInt(parts[1]), Base64.getDecoder().decode(parts[2]), Base64.getDecoder().decode(parts[3]));
        } catch (IllegalArgumentException e) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "Not a password hash (" + SCHEME + ":ITERATIONS:SALT:HASH): " + text, e);
        }
    }

    /** Whether {@code password} hashes to this (compared in constant time). */
    public boolean matches(char[] password) {
        return MessageDigest.isEqual(hash, derive(password, salt, iterations));
    }

    private static byte[] derive(char[] password, byte[] salt, int iterations) {
        PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "PBKDF2WithHmacSHA256 is not available in this JVM: " + e.getMessage(), e);
        } finally {
            spec.clearPassword();
        }
    }

    @Override
    public String toString() {
        return SCHEME + ":" + iterations + ":" + Base64.getEncoder().encodeToString(salt) + ":" + Base64.getEncoder().encodeToString(hash);
    }
}
