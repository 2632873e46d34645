package dev.quiver.engine.source.storage.s3;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.source.storage.FileEntry;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.RandomReader;
import dev.quiver.engine.source.storage.Storage;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Objects of S3 or an S3-compatible server ({@code s3://bucket/key}) through the AWS SDK v2 with
 * the JDK's HTTP client ({@code url-connection-client}). A directory is a key prefix followed by
 * {@code /}. Reads are ranged GETs: a Parquet scan fetches the footer, then only the column
 * chunks it reads ({@link S3RandomReader}, several at once on {@code executor}); CSV and JSON
 * scans read their byte ranges in chunks ({@link S3RangeInputStream}). A new object is written
 * through a local temporary file and uploaded when its stream is closed ({@link S3OutputStream}).
 *
 * <p>Each operation uses its own client, closed with it (a client costs about 2 ms to build;
 * the JDK pools the connections), so that nothing outlives the reads it served.
 */
public final class S3Storage implements Storage {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(60);

    private final S3Config config;
    private final Optional<Executor> executor;

    /** @param executor where parallel range reads run; empty: one after the other */
    public S3Storage(S3Config config, Optional<Executor> executor) {
        this.config = requireNonNull(config, "config is null");
        this.executor = requireNonNull(executor, "executor is null");
    }

    public S3Config config() {
        return config;
    }

    /** A new client of this config; the caller closes it. */
    S3Client newClient() {
        S3ClientBuilder builder = S3Client.builder()
                .region(Region.of(config.region()))
                .credentialsProvider(credentials())
                .httpClientBuilder(UrlConnectionHttpClient.builder().connectionTimeout(CONNECT_TIMEOUT).socketTimeout(SOCKET_TIMEOUT))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(config.pathStyle()).build())
                // S3-compatible servers do not all know the SDK's newer default checksums
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        config.endpoint().ifPresent(builder::endpointOverride);
        return builder.build();
    }

    private AwsCredentialsProvider credentials() {
        S3Config.Credentials credentials = config.credentials();
        if (credentials instanceof S3Config.Credentials.Keys keys) {
            return StaticCredentialsProvider.create(keys.sessionToken().isSet()
                    ? AwsSessionCredentials.create(keys.accessKeyId(), keys.secretAccessKey().reveal(), keys.sessionToken().reveal())
                    : AwsBasicCredentials.create(keys.accessKeyId(), keys.secretAccessKey().reveal()));
        }
        if (credentials instanceof S3Config.Credentials.Profile profile) {
            return ProfileCredentialsProvider.builder().profileName(profile.name()).build();
        }
        return AnonymousCredentialsProvider.create();
    }

    @Override
    public Optional<FileEntry> stat(Location location) {
        S3Path path = S3Path.of(location);
        try (S3Client client = newClient()) {
            if (!path.key().isEmpty() && !path.key().endsWith("/")) {
                try {
                    HeadObjectResponse head = client.headObject(request -> request.bucket(path.bucket()).key(path.key()));
                    return Optional.of(FileEntry.file(location, head.contentLength()));
                } catch (S3Exception e) {
                    if (e.statusCode() != 404) {
                        throw S3Errors.of(e, "read", location, config);
                    }
                }
            }
            ListObjectsV2Response below = client.listObjectsV2(request -> request.bucket(path.bucket()).prefix(path.directoryPrefix()).maxKeys(1));
            return below.contents().isEmpty() && below.commonPrefixes().isEmpty() && !path.key().isEmpty()
                    ? Optional.empty() : Optional.of(FileEntry.directory(location));
        } catch (SdkException e) {
            throw S3Errors.of(e, "read", location, config);
        }
    }

    @Override
    public List<FileEntry> list(Location directory) {
        return list(directory, true);
    }

    @Override
    public List<FileEntry> listAll(Location directory) {
        List<FileEntry> files = new ArrayList<>();
        String prefix = S3Path.of(directory).directoryPrefix();
        for (FileEntry entry : list(directory, false)) {
            // skip what is hidden, or below a hidden directory, under the directory listed
            String relative = entry.location().key().substring(prefix.length());
            boolean hidden = false;
            for (String name : relative.split("/")) {
                hidden |= name.startsWith(".") || name.startsWith("_");
            }
            if (!hidden) {
                files.add(entry);
            }
        }
        return files;
    }

    /** The objects below {@code directory}: with {@code delimited}, only those directly in it and its subdirectories. */
    private List<FileEntry> list(Location directory, boolean delimited) {
        S3Path path = S3Path.of(directory);
        String prefix = path.directoryPrefix();
        List<FileEntry> entries = new ArrayList<>();
        try (S3Client client = newClient()) {
            ListObjectsV2Request.Builder request = ListObjectsV2Request.builder().bucket(path.bucket()).prefix(prefix);
            if (delimited) {
                request.delimiter("/");
            }
            for (ListObjectsV2Response page : client.listObjectsV2Paginator(request.build())) {
                for (S3Object object : page.contents()) {
                    if (!object.key().equals(prefix) && !object.key().endsWith("/")) {
                        entries.add(FileEntry.file(path.child(object.key()), object.size()));
                    }
                }
                for (CommonPrefix common : page.commonPrefixes()) {
                    String key = common.prefix();
                    entries.add(FileEntry.directory(path.child(key.substring(0, key.length() - 1))));
                }
            }
        } catch (SdkException e) {
            throw S3Errors.of(e, "list", directory, config);
        }
        entries.sort((a, b) -> a.location().compareTo(b.location()));
        return entries;
    }

    @Override
    public RandomReader openRandom(Location location, long size) {
        return new S3RandomReader(this, S3Path.of(location), location, size, executor);
    }

    @Override
    public InputStream open(Location location, long offset) {
        return new S3RangeInputStream(this, S3Path.of(location), location, offset);
    }

    @Override
    public OutputStream create(Location location) {
        return S3OutputStream.create(this, S3Path.of(location), location);
    }

    @Override
    public String toString() {
        return "s3(" + config.describeEndpoint() + ")";
    }
}
