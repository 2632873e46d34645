package dev.quiver.engine.source.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.FileListing;
import dev.quiver.engine.source.storage.FileEntry;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.RandomReader;
import dev.quiver.engine.source.storage.Storage;
import dev.quiver.engine.source.storage.Storages;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link S3Storage} against a real S3-compatible server ({@link S3TestServer}). */
class S3StorageTest {
    private static final String BUCKET = "storage-test";

    @TempDir
    static Path directory;
    private static S3TestServer server;
    private static Storages storages;

    @BeforeAll
    static void start() throws Exception {
        server = S3TestServer.start(directory);
        server.createBucket(BUCKET);
        for (String key : List.of("t/a.parquet", "t/b.parquet", "t/_SUCCESS", "t/.hidden.parquet", "t/x/deep.parquet", "t/_temporary/t.parquet",
                "t/year=2024/f.parquet", "t/year=2023/f.parquet", "other/c.csv")) {
            server.put(BUCKET, key, key.getBytes(StandardCharsets.UTF_8));
        }
        storages = Storages.from(server.storageSettings(), Map.of());
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static Storage storage() {
        return storages.of(Location.of("s3://" + BUCKET + "/"));
    }

    private static List<String> listed(String... locations) {
        return FileListing.list(storages, List.of(locations), Set.of(".parquet"), "Parquet").stream()
                .map(file -> file.location().toString().substring(("s3://" + BUCKET + "/").length())).toList();
    }

    @Test
    void aKeyIsAFileAndAPrefixADirectory() {
        assertThat(storage().stat(Location.of("s3://" + BUCKET + "/t/a.parquet"))).contains(FileEntry.file(Location.of("s3://" + BUCKET + "/t/a.parquet"), 11));
        assertThat(storage().stat(Location.of("s3://" + BUCKET + "/t")).orElseThrow().directory()).isTrue();
        assertThat(storage().stat(Location.of("s3://" + BUCKET + "/t/")).orElseThrow().directory()).isTrue();
        assertThat(storage().stat(Location.of("s3://" + BUCKET + "/none"))).isEmpty();
        assertThat(storage().list(Location.of("s3://" + BUCKET + "/t")).stream().map(e -> e.location().fileName() + (e.directory() ? "/" : "")))
                .containsExactly(".hidden.parquet", "_SUCCESS", "_temporary/", "a.parquet", "b.parquet", "x/", "year=2023/", "year=2024/");
    }

    @Test
    void directoriesGlobsAndDoubleStarsListAsLocalPathsDo() {
        assertThat(listed("s3://" + BUCKET + "/t")).containsExactly("t/a.parquet", "t/b.parquet", "t/x/deep.parquet", "t/year=2023/f.parquet",
                "t/year=2024/f.parquet");
        assertThat(listed("s3://" + BUCKET + "/t/*.parquet")).containsExactly("t/a.parquet", "t/b.parquet");
        assertThat(listed("s3://" + BUCKET + "/t/year=*/*.parquet")).containsExactly("t/year=2023/f.parquet", "t/year=2024/f.parquet");
        assertThat(listed("s3://" + BUCKET + "/**/deep.parquet")).containsExactly("t/x/deep.parquet");
        assertThatThrownBy(() -> listed("s3://" + BUCKET + "/none/*.parquet")).hasMessage("No files match the pattern 's3://" + BUCKET + "/none/*.parquet'");
        assertThatThrownBy(() -> listed("s3://" + BUCKET + "/t/missing.parquet")).hasMessage("Parquet path s3://" + BUCKET + "/t/missing.parquet does not exist");
    }

    @Test
    void aRandomReadFetchesOnlyItsRangeAndTheTailOnce() throws Exception {
        byte[] bytes = new byte[200_000];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        server.put(BUCKET, "ranges/r.bin", bytes);
        Location file = Location.of("s3://" + BUCKET + "/ranges/r.bin");
        int before = server.gets(BUCKET, "ranges/r.bin").size();
        try (RandomReader reader = storage().openRandom(file, bytes.length)) {
            ByteBuffer middle = ByteBuffer.allocate(1000);
            reader.readFully(50_000, middle);
            assertThat(middle.array()[0]).isEqualTo(bytes[50_000]);
            for (int read = 0; read < 3; read++) {
                ByteBuffer end = ByteBuffer.allocate(8);
                reader.readFully(bytes.length - 8, end);
                assertThat(end.array()[7]).isEqualTo(bytes[bytes.length - 1]);
            }
        }
        List<S3TestServer.Request> gets = server.gets(BUCKET, "ranges/r.bin");
        assertThat(gets.subList(before, gets.size())).extracting(S3TestServer.Request::rangeStart, S3TestServer.Request::rangeBytes)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(50_000L, 1000L),
                        org.assertj.core.groups.Tuple.tuple((long) bytes.length - S3RandomReader.TAIL_BYTES, (long) S3RandomReader.TAIL_BYTES));
    }

    @Test
    void aSequentialReadFromAnOffsetAndAWriteRoundTrip() throws Exception {
        Location file = Location.of("s3://" + BUCKET + "/written/w.txt");
        try (OutputStream out = storage().create(file)) {
            out.write("hello, object store".getBytes(StandardCharsets.UTF_8));
        }
        try (InputStream in = storage().open(file, 7)) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("object store");
        }
        try (InputStream in = storage().open(file, 19)) {
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void badCredentialsAMissingBucketAndAnUnreachableEndpointAreErrorsNamingTheLocation() {
        Map<String, String> wrong = new java.util.HashMap<>(server.settings());
        wrong.put("s3.secret_access_key", "not-the-secret");
        Storages badSecret = Storages.from(server.storageSettings().withAll(wrong), Map.of());
        Location file = Location.of("s3://" + BUCKET + "/t/a.parquet");
        assertThatThrownBy(() -> badSecret.of(file).stat(file)).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR);
            assertThat(e.getMessage()).startsWith("cannot read " + file + ": ").contains("credentials from the s3.* settings")
                    .doesNotContain("not-the-secret");
        });
        Location missing = Location.of("s3://no-such-bucket/t/a.parquet");
        assertThatThrownBy(() -> listed(missing.toString())).isInstanceOf(QuiverException.class)
                .hasMessageContaining("s3://no-such-bucket/t/a.parquet").hasMessageContaining("the bucket 'no-such-bucket' does not exist");
        Map<String, String> nowhere = new java.util.HashMap<>(server.settings());
        nowhere.put("s3.endpoint", "http://127.0.0.1:1");
        Storages unreachable = Storages.from(server.storageSettings().withAll(nowhere), Map.of());
        assertThatThrownBy(() -> unreachable.of(file).stat(file)).isInstanceOf(QuiverException.class)
                .hasMessageStartingWith("cannot read " + file + ": cannot reach http://127.0.0.1:1");
    }

    @Test
    void credentialsComeFromTheSettingsThenTheEnvironmentThenAProfile() {
        var none = server.storageSettings().withAll(Map.of("s3.access_key_id", "", "s3.secret_access_key", ""));
        assertThat(S3Config.from(server.storageSettings(), Map.of("AWS_ACCESS_KEY_ID", "env"), false).credentials())
                .isInstanceOfSatisfying(S3Config.Credentials.Keys.class, keys -> assertThat(keys.accessKeyId()).isEqualTo(S3TestServer.ACCESS_KEY));
        assertThat(S3Config.from(none, Map.of("AWS_ACCESS_KEY_ID", "env", "AWS_SECRET_ACCESS_KEY", "s", "AWS_REGION", "eu-west-1"), false))
                .satisfies(config -> {
                    assertThat(config.credentials()).isInstanceOfSatisfying(S3Config.Credentials.Keys.class,
                            keys -> assertThat(keys.accessKeyId()).isEqualTo("env"));
                    assertThat(config.region()).isEqualTo("eu-west-1");
                    assertThat(config.toString()).doesNotContain("s,").doesNotContain("=s]");
                });
        assertThat(S3Config.from(none, Map.of("AWS_PROFILE", "work"), false).credentials()).isEqualTo(new S3Config.Credentials.Profile("work"));
        assertThat(S3Config.from(none, Map.of(), true).credentials()).isEqualTo(new S3Config.Credentials.Profile("default"));
        assertThat(S3Config.from(none, Map.of(), false).credentials()).isEqualTo(new S3Config.Credentials.Anonymous());
        assertThat(S3Config.from(none, Map.of(), false).region()).isEqualTo("us-east-1");
        assertThat(S3Config.from(none, Map.of(), false).pathStyle()).isTrue(); // an endpoint is set
    }
}
