package dev.quiver.engine.source.storage.s3;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.config.SettingsRegistry;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.source.storage.StorageSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3-compatible server for tests: S3Proxy with its filesystem backend on 127.0.0.1 and a
 * free port, in a child JVM whose class path quiver-testing-s3 resolved (its jars conflict with
 * Quiver's, so they never join the test's class path). The child dies with the test JVM (a
 * parent-death signal, where {@code setpriv} exists, and a shutdown hook) and on {@link #close}.
 *
 * <p>S3Proxy logs every request it serves ({@link #requests}): the method, the key and the
 * {@code Range} header, so a test can see which bytes a query fetched.
 */
public final class S3TestServer implements AutoCloseable {
    public static final String ACCESS_KEY = "quiver-test-key";
    public static final String SECRET_KEY = "quiver-test-secret";
    private static final String CLASSPATH_FILE = "quiver-testing-s3/target/s3proxy.classpath";
    /** S3ProxyHandler's log (see LOGBACK below): a request line, then one line per header, on the request's thread. */
    private static final Pattern REQUEST = Pattern.compile("\\[([^\\]]+)] DEBUG S3ProxyHandler - request: .*\\{([A-Z]+)@\\w+ http://[^/]+(/\\S*) HTTP/");
    private static final Pattern RANGE = Pattern.compile("\\[([^\\]]+)] TRACE S3ProxyHandler - header: Range: bytes=(\\d+)-(\\d+)");

    private final Process process;
    private final Thread hook;
    private final int port;
    private final Path directory;
    private final Path log;

    private S3TestServer(Process process, Thread hook, int port, Path directory, Path log) {
        this.process = process;
        this.hook = hook;
        this.port = port;
        this.directory = directory;
        this.log = log;
    }

    /** Starts a server keeping its buckets under {@code directory}; waits until it answers. */
    public static S3TestServer start(Path directory) throws IOException, InterruptedException {
        requireNonNull(directory, "directory is null");
        Path data = Files.createDirectories(directory.resolve("buckets"));
        int port = freePort();
        Path properties = directory.resolve("s3proxy.properties");
        Files.writeString(properties, String.join("\n",
                "s3proxy.endpoint=http://127.0.0.1:" + port,
                "s3proxy.authorization=aws-v2-or-v4",
                "s3proxy.identity=" + ACCESS_KEY,
                "s3proxy.credential=" + SECRET_KEY,
                "jclouds.provider=filesystem",
                "jclouds.filesystem.basedir=" + data.toAbsolutePath(),
                ""), StandardCharsets.UTF_8);
        Path logback = directory.resolve("logback.xml");
        Files.writeString(logback, LOGBACK, StandardCharsets.UTF_8);
        Path log = directory.resolve("s3proxy.log");
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setpriv"))) {
            command.addAll(List.of("/usr/bin/setpriv", "--pdeathsig", "KILL"));
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-Dlogback.configurationFile=" + logback.toAbsolutePath(), "-cp", classPath(), "org.gaul.s3proxy.Main",
                "--properties", properties.toAbsolutePath().toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Thread hook = new Thread(process::destroyForcibly, "s3-test-server-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        S3TestServer server = new S3TestServer(process, hook, port, directory, log);
        try {
            server.awaitListening();
            return server;
        } catch (IOException | RuntimeException | InterruptedException e) {
            server.close();
            throw e;
        }
    }

    private static String classPath() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path file = dir.resolve(CLASSPATH_FILE);
            if (Files.isRegularFile(file)) {
                return Files.readString(file, StandardCharsets.UTF_8).strip();
            }
        }
        throw new IllegalStateException(CLASSPATH_FILE + " not found above " + Path.of("").toAbsolutePath()
                + ": build the module quiver-testing-s3 first (./mvnw -pl quiver-testing-s3 install)");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private void awaitListening() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("S3Proxy ended with " + process.exitValue() + " before it listened; its log:\n" + Files.readString(log));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new IllegalStateException("S3Proxy did not listen on port " + port + " within 60 s; its log:\n" + Files.readString(log));
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** The {@code s3.*} settings that reach this server, by name (as {@code SET} takes them). */
    public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(StorageSettings.S3_ENDPOINT.name(), endpoint().toString());
        settings.put(StorageSettings.S3_ACCESS_KEY_ID.name(), ACCESS_KEY);
        settings.put(StorageSettings.S3_SECRET_ACCESS_KEY.name(), SECRET_KEY);
        return settings;
    }

    /** {@link #settings} as a value of the {@code s3.*} registry. */
    public Settings storageSettings() {
        return SettingsRegistry.concat(List.of(StorageSettings.REGISTRY)).defaults().withAll(settings());
    }

    /** A client of this server, which the caller closes. */
    public S3Client client() {
        return new S3Storage(S3Config.from(storageSettings(), Map.of(), false), java.util.Optional.empty()).newClient();
    }

    public void createBucket(String bucket) {
        try (S3Client client = client()) {
            client.createBucket(request -> request.bucket(bucket));
        }
    }

    /** Uploads {@code file} as {@code key} of {@code bucket}. */
    public void put(String bucket, String key, Path file) {
        try (S3Client client = client()) {
            client.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromFile(file));
        }
    }

    public void put(String bucket, String key, byte[] bytes) {
        try (S3Client client = client()) {
            client.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromBytes(bytes));
        }
    }

    /** Uploads every file below {@code directory} under {@code prefix} (keys {@code prefix/relative/path}). */
    public void putTree(String bucket, String prefix, Path directory) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(directory)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        try (S3Client client = client()) {
            for (Path file : files) {
                String key = prefix + "/" + directory.relativize(file).toString().replace('\\', '/');
                client.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromFile(file));
            }
        }
    }

    /**
     * One request the server served.
     *
     * @param method the HTTP method
     * @param path {@code /bucket/key} (with the query string of a listing)
     * @param rangeStart the first byte of the {@code Range} header, or -1 without one
     * @param rangeEnd the last byte of the {@code Range} header (inclusive), or -1
     */
    public record Request(String method, String path, long rangeStart, long rangeEnd) {
        /** Bytes the range asks for (a GET without one: -1). */
        public long rangeBytes() {
            return rangeStart < 0 ? -1 : rangeEnd - rangeStart + 1;
        }
    }

    /** Every request served so far, in the order they arrived. */
    public List<Request> requests() {
        List<Request> requests = new ArrayList<>();
        Map<String, Integer> current = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                Matcher request = REQUEST.matcher(line);
                if (request.find()) {
                    current.put(request.group(1), requests.size());
                    requests.add(new Request(request.group(2), request.group(3), -1, -1));
                    continue;
                }
                Matcher range = RANGE.matcher(line);
                if (range.find() && current.containsKey(range.group(1))) {
                    int index = current.get(range.group(1));
                    Request old = requests.get(index);
                    requests.set(index, new Request(old.method(), old.path(), Long.parseLong(range.group(2)), Long.parseLong(range.group(3))));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return requests;
    }

    /** The GETs of {@code /bucket/key} served so far. */
    public List<Request> gets(String bucket, String key) {
        String path = "/" + bucket + "/" + key;
        return requests().stream().filter(r -> r.method().equals("GET") && r.path().equals(path)).toList();
    }

    public Path directory() {
        return directory;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }

    /** INFO and above, and S3Proxy's request lines, to the child's stdout (the log file). */
    private static final String LOGBACK = """
            <configuration>
              <appender name="out" class="ch.qos.logback.core.ConsoleAppender">
                <encoder><pattern>%d{HH:mm:ss.SSS} [%thread] %-5level %logger{0} - %msg%n</pattern></encoder>
              </appender>
              <logger name="org.gaul.s3proxy.S3ProxyHandler" level="TRACE"/>
              <root level="INFO"><appender-ref ref="out"/></root>
            </configuration>
            """;
}
