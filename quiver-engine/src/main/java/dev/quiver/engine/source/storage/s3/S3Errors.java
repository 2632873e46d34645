package dev.quiver.engine.source.storage.s3;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.storage.Location;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** S3's failures as SOURCE_ERRORs that name the location and say what to check. */
final class S3Errors {
    private S3Errors() {}

    /** The error of {@code action} ("read", "list", "write") on {@code location} failing with {@code e}. */
    static QuiverException of(SdkException e, String action, Location location, S3Config config) {
        String prefix = "cannot " + action + " " + location + ": ";
        if (e instanceof S3Exception s3) {
            String code = s3.awsErrorDetails() == null || s3.awsErrorDetails().errorCode() == null ? "" : s3.awsErrorDetails().errorCode();
            String reason = switch (code) {
                case "NoSuchBucket" -> "the bucket '" + location.authority() + "' does not exist";
                case "NoSuchKey" -> "the object does not exist";
                case "InvalidAccessKeyId" -> "the access key is not known to " + config.describeEndpoint() + " (" + source(config) + ")";
                case "SignatureDoesNotMatch" -> "the secret key does not match the access key (" + source(config) + ")";
                case "ExpiredToken", "InvalidToken" -> "the session token is expired or invalid (" + source(config) + ")";
                case "InvalidRange" -> "the range is past the end of the object";
                default -> s3.statusCode() == 403
                        ? "access denied (HTTP 403" + (code.isEmpty() ? "" : ", " + code) + "): check the credentials (" + source(config) + ")"
                                + " and that they may read the bucket"
                        : s3.statusCode() == 404 ? "not found (HTTP 404)"
                                : "HTTP " + s3.statusCode() + (code.isEmpty() ? "" : " " + code) + ": " + message(s3);
            };
            return new QuiverException(ErrorCode.SOURCE_ERROR, prefix + reason, e);
        }
        if (e instanceof SdkClientException && String.valueOf(e.getMessage()).contains("credentials")) {
            return new QuiverException(ErrorCode.SOURCE_ERROR, prefix + "no credentials could be loaded (" + message(e) + "); "
                    + "set s3.access_key_id and s3.secret_access_key, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile", e);
        }
        if (e instanceof SdkClientException) {
            return new QuiverException(ErrorCode.SOURCE_ERROR, prefix + "cannot reach " + config.describeEndpoint() + " (" + message(e)
                    + "); check s3.endpoint", e);
        }
        return new QuiverException(ErrorCode.SOURCE_ERROR, prefix + message(e), e);
    }

    private static String source(S3Config config) {
        S3Config.Credentials credentials = config.credentials();
        if (credentials instanceof S3Config.Credentials.Keys keys) {
            return "credentials from " + keys.source();
        }
        if (credentials instanceof S3Config.Credentials.Profile profile) {
            return "credentials of profile '" + profile.name() + "'";
        }
        return "no credentials: set s3.access_key_id and s3.secret_access_key, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY";
    }

    private static String message(Exception e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
