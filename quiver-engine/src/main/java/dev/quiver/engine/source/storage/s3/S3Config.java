package dev.quiver.engine.source.storage.s3;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.config.Secret;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.config.Setting;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.storage.StorageSettings;
import dev.quiver.engine.source.storage.StorageSettings.PathStyle;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;
import java.util.Optional;

/**
 * How to reach S3, resolved from the {@code s3.*} settings and then the standard AWS environment
 * variables; the AWS SDK's default chains are never used (they probe the instance metadata
 * service at 169.254.169.254, which hangs off AWS).
 *
 * <p>Credentials, first found wins: {@code s3.access_key_id} with {@code s3.secret_access_key}
 * (and {@code s3.session_token}); {@code AWS_ACCESS_KEY_ID} with {@code AWS_SECRET_ACCESS_KEY}
 * (and {@code AWS_SESSION_TOKEN}); the profile {@code AWS_PROFILE} (default {@code default}) of
 * the shared credentials and config files ({@code ~/.aws/credentials}, {@code AWS_SHARED_CREDENTIALS_FILE});
 * else requests are anonymous (public buckets).
 *
 * @param endpoint the endpoint, or empty for AWS's of the region
 * @param region the signing region
 * @param credentials where the credentials come from
 * @param pathStyle whether the bucket goes in the path
 */
public record S3Config(Optional<URI> endpoint, String region, Credentials credentials, boolean pathStyle) {
    /** What a config of the defaults with no environment is: AWS, us-east-1, anonymous. */
    static final String DEFAULT_REGION = "us-east-1";

    public S3Config {
        requireNonNull(endpoint, "endpoint is null");
        requireNonNull(region, "region is null");
        requireNonNull(credentials, "credentials is null");
    }

    /** Where credentials come from; secrets print masked. */
    public sealed interface Credentials {
        /** Keys given (by settings or environment variables). */
        record Keys(String accessKeyId, Secret secretAccessKey, Secret sessionToken, String source) implements Credentials {
            public Keys {
                requireNonNull(accessKeyId, "accessKeyId is null");
                requireNonNull(secretAccessKey, "secretAccessKey is null");
                requireNonNull(sessionToken, "sessionToken is null");
                requireNonNull(source, "source is null");
            }
        }

        /** A profile of the shared credentials files. */
        record Profile(String name) implements Credentials {
            public Profile {
                requireNonNull(name, "name is null");
            }
        }

        /** Unsigned requests. */
        record Anonymous() implements Credentials {}
    }

    /**
     * The config of {@code settings} (those of its registry's {@code s3.*} settings it has; the
     * others at their defaults) over the environment {@code env}.
     *
     * @param profileExists whether the shared credentials or config file exists (a profile is then tried)
     */
    public static S3Config from(Settings settings, Map<String, String> env, boolean profileExists) {
        requireNonNull(settings, "settings is null");
        requireNonNull(env, "env is null");
        String endpointText = first(get(settings, StorageSettings.S3_ENDPOINT), env.get("AWS_ENDPOINT_URL_S3"), env.get("AWS_ENDPOINT_URL"));
        Optional<URI> endpoint = endpointText.isEmpty() ? Optional.empty() : Optional.of(endpoint(endpointText));
        String region = first(get(settings, StorageSettings.S3_REGION), env.get("AWS_REGION"), env.get("AWS_DEFAULT_REGION"));
        PathStyle style = get(settings, StorageSettings.S3_PATH_STYLE);
        boolean pathStyle = style == PathStyle.TRUE || style == PathStyle.AUTO && endpoint.isPresent();
        return new S3Config(endpoint, region.isEmpty() ? DEFAULT_REGION : region, credentials(settings, env, profileExists), pathStyle);
    }

    private static Credentials credentials(Settings settings, Map<String, String> env, boolean profileExists) {
        String key = get(settings, StorageSettings.S3_ACCESS_KEY_ID);
        Secret secret = get(settings, StorageSettings.S3_SECRET_ACCESS_KEY);
        if (!key.isEmpty() || secret.isSet()) {
            if (key.isEmpty() || !secret.isSet()) {
                throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "s3.access_key_id and s3.secret_access_key are set together; "
                        + (key.isEmpty() ? "s3.access_key_id" : "s3.secret_access_key") + " is empty");
            }
            return new Credentials.Keys(key, secret, get(settings, StorageSettings.S3_SESSION_TOKEN), "the s3.* settings");
        }
        String envKey = env.getOrDefault("AWS_ACCESS_KEY_ID", "");
        String envSecret = env.getOrDefault("AWS_SECRET_ACCESS_KEY", "");
        if (!envKey.isEmpty() && !envSecret.isEmpty()) {
            return new Credentials.Keys(envKey, new Secret(envSecret), new Secret(env.getOrDefault("AWS_SESSION_TOKEN", "")),
                    "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
        }
        String profile = env.getOrDefault("AWS_PROFILE", "");
        if (!profile.isEmpty() || profileExists) {
            return new Credentials.Profile(profile.isEmpty() ? "default" : profile);
        }
        return new Credentials.Anonymous();
    }

    private static URI endpoint(String text) {
        try {
            URI uri = new URI(text);
            if (uri.getScheme() == null || uri.getHost() == null || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))) {
                throw new URISyntaxException(text, "not an http or https URL");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "s3.endpoint '" + text + "' is not an http:// or https:// URL, such as "
                    + "http://127.0.0.1:9000");
        }
    }

    private static <T> T get(Settings settings, Setting<T> setting) {
        return settings.registry().contains(setting) ? settings.get(setting) : setting.defaultValue();
    }

    private static String first(String... values) {
        for (String value : values) {
            if (value != null && !value.isBlank()) {
                return value.trim();
            }
        }
        return "";
    }

    /** Where requests go, for messages. */
    String describeEndpoint() {
        return endpoint.map(URI::toString).orElse("AWS S3 in " + region);
    }
}
