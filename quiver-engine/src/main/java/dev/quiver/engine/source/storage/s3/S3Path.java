package dev.quiver.engine.source.storage.s3;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.storage.Location;

/**
 * The bucket and key of an {@code s3://bucket/key} location.
 *
 * @param bucket the bucket
 * @param key the key, without a leading {@code /}; empty for the bucket itself
 */
record S3Path(String bucket, String key) {
    S3Path {
        requireNonNull(bucket, "bucket is null");
        requireNonNull(key, "key is null");
    }

    static S3Path of(Location location) {
        if (!location.scheme().orElse("").equals("s3") || location.authority().isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "'" + location + "' is not an S3 location: write s3://bucket/key");
        }
        return new S3Path(location.authority(), location.key());
    }

    /** The prefix of the keys inside this location taken as a directory: the key and a {@code /} (none for the bucket). */
    String directoryPrefix() {
        return key.isEmpty() || key.endsWith("/") ? key : key + "/";
    }

    /** The location of another key of this bucket. */
    Location child(String otherKey) {
        return new Location("s3://" + bucket + "/" + otherKey);
    }
}
