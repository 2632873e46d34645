package dev.quiver.engine.source.storage;

import dev.quiver.engine.config.Secret;
import dev.quiver.engine.config.Setting;
import dev.quiver.engine.config.SettingCheck;
import dev.quiver.engine.config.SettingTypes;
import dev.quiver.engine.config.SettingsRegistry;

/**
 * The {@code s3.*} settings: how {@code s3://} locations are reached. Each one left empty falls
 * back to the standard AWS environment variables and profile files (docs/s3.md). They travel to
 * workers with every task, so that each worker reads its own splits; the secrets are never shown.
 */
public final class StorageSettings {
    private static final SettingsRegistry.Builder DECLARED = SettingsRegistry.builder();

    /** Whether requests name the bucket in the path ({@code http://host/bucket/key}) rather than in the host name. */
    public enum PathStyle {
        /** Path-style when an endpoint is set (S3-compatible servers), virtual-hosted on AWS. */
        AUTO,
        TRUE,
        FALSE
    }

    public static final Setting<String> S3_ENDPOINT = DECLARED.add(Setting.of("s3.endpoint", SettingTypes.STRING, "", SettingCheck.any(),
            "the S3 endpoint, e.g. `http://127.0.0.1:9000` for an S3-compatible server; empty: `AWS_ENDPOINT_URL_S3`, "
                    + "`AWS_ENDPOINT_URL`, else AWS's endpoint of the region"));
    public static final Setting<String> S3_REGION = DECLARED.add(Setting.of("s3.region", SettingTypes.STRING, "", SettingCheck.any(),
            "the region requests are signed for; empty: `AWS_REGION`, `AWS_DEFAULT_REGION`, else `us-east-1`"));
    public static final Setting<String> S3_ACCESS_KEY_ID = DECLARED.add(Setting.of("s3.access_key_id", SettingTypes.STRING, "", SettingCheck.any(),
            "the access key; empty: `AWS_ACCESS_KEY_ID`, else the profile (`AWS_PROFILE`, default `default`) of `~/.aws/credentials`"));
    public static final Setting<Secret> S3_SECRET_ACCESS_KEY = DECLARED.add(Setting.of("s3.secret_access_key", SettingTypes.SECRET, Secret.NONE,
            SettingCheck.any(), "the secret key that goes with `s3.access_key_id` (never shown)"));
    public static final Setting<Secret> S3_SESSION_TOKEN = DECLARED.add(Setting.of("s3.session_token", SettingTypes.SECRET, Secret.NONE,
            SettingCheck.any(), "the session token of temporary credentials, with `s3.access_key_id` (never shown)"));
    public static final Setting<PathStyle> S3_PATH_STYLE = DECLARED.add(Setting.of("s3.path_style", SettingTypes.enumOf(PathStyle.class),
            PathStyle.AUTO, SettingCheck.any(), "name the bucket in the path rather than in the host name; `auto`: when `s3.endpoint` is set"));

    /** Every setting declared above. */
    public static final SettingsRegistry REGISTRY = DECLARED.build();

    private StorageSettings() {}
}
