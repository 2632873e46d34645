package dev.quiver.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.session.QuerySession;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's filesystem runs, without a container runtime: its layers are unpacked into a
 * directory and its entrypoint (from the config, as a runtime would take it) is started there under
 * {@code chroot}, as the image's user, in a private mount namespace that has only {@code /proc} and
 * {@code /dev} of this machine, and an {@code /etc/hosts} as a runtime writes one. A {@code quiver worker} and a {@code quiver server} using it, sharing
 * a cluster secret, answer a TPC-H query from a {@code quiver sql --server} client, all three in the
 * image's runtime, with what a single-node session in this JVM answers. Needs root (CI has it).
 */
class ImageRunTest {
    private static final String QUERY = "SELECT l_returnflag, count(*) AS n, sum(l_quantity) AS q FROM lineitem GROUP BY l_returnflag ORDER BY l_returnflag";

    @Test
    void aWorkerAndAServerStartedByTheEntrypointAnswerADistributedQuery(@TempDir Path dir) throws Exception {
        assumeTrue(isRoot() && onPath("unshare") && onPath("chroot"), "needs root, unshare and chroot");
        ImageTarball image = ImageTarball.read(Path.of(System.getProperty("quiver.image.tar")));
        Path rootfs = dir.resolve("rootfs");
        image.extract(rootfs);
        Files.createDirectories(rootfs.resolve("proc"));
        Files.createDirectories(rootfs.resolve("dev"));
        Files.writeString(rootfs.resolve("data/cluster-secret"), "a-cluster-secret-for-the-image-test\n");
        // what a container runtime writes (Kubernetes too): without it, the JVM's look-up of its own host name waits on DNS time-outs
        Files.writeString(rootfs.resolve("etc/hosts"), "127.0.0.1 localhost " + java.net.InetAddress.getLocalHost().getHostName() + "\n");
        List<String> entrypoint = new ArrayList<>();
        image.config().get("config").get("Entrypoint").forEach(node -> entrypoint.add(node.asText()));
        String user = image.config().get("config").get("User").asText();
        int workerPort = freePort();
        int serverPort = freePort();
        List<Process> started = new ArrayList<>();
        try {
            Process worker = start(rootfs, user, entrypoint, List.of("worker", "--host", "127.0.0.1", "--port", String.valueOf(workerPort),
                    "--memory-limit", "256MiB", "--cluster-secret-file", "/data/cluster-secret"), started);
            awaitLine(worker, "listening on");
            Process server = start(rootfs, user, entrypoint, List.of("server", "--host", "127.0.0.1", "--port", String.valueOf(serverPort),
                    "--workers", "127.0.0.1:" + workerPort, "--cluster-secret-file", "/data/cluster-secret", "--tpch", "0.01",
                    "--memory-limit", "512MiB"), started);
            awaitLine(server, "listening on");
            Process client = start(rootfs, user, entrypoint, List.of("sql", "--server", "127.0.0.1:" + serverPort, "--format", "csv", QUERY), started);
            String output = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(client.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(client.exitValue()).as("the client's exit code; it printed:%n%s", output).isZero();
            assertSameRows(output.strip().lines().toList(), expectedRows());
        } finally {
            // the JVMs are unshare's children: they get SIGTERM themselves (unshare ignores it while it waits, and
            // --kill-child's parent-death signal does not survive chroot's change of user)
            for (Process process : started) {
                List<ProcessHandle> jvms = process.descendants().toList();
                jvms.forEach(ProcessHandle::destroy);
                for (ProcessHandle jvm : jvms) {
                    try {
                        jvm.onExit().get(30, TimeUnit.SECONDS);
                    } catch (java.util.concurrent.TimeoutException e) {
                        jvm.destroyForcibly();
                    }
                }
                process.destroyForcibly().waitFor();
            }
        }
    }

    private static List<List<Object>> expectedRows() {
        try (TpchCatalog catalog = TpchCatalog.cached(0.01, 256L << 20);
                QuerySession session = QuerySession.builder().catalog(catalog).targetPartitions(2).build()) {
            return session.executeScript(QUERY).rows();
        }
    }

    /** The CSV's header, then one line per expected row: the flag equal, the numbers equal as decimals. */
    private static void assertSameRows(List<String> csv, List<List<Object>> expected) {
        assertThat(csv).as("csv lines").hasSize(expected.size() + 1);
        assertThat(csv.get(0)).isEqualTo("l_returnflag,n,q");
        for (int i = 0; i < expected.size(); i++) {
            String[] fields = csv.get(i + 1).split(",");
            List<Object> row = expected.get(i);
            assertThat(fields[0]).isEqualTo(String.valueOf(row.get(0)));
            assertThat(new BigDecimal(fields[1])).isEqualByComparingTo(new BigDecimal(row.get(1).toString()));
            assertThat(new BigDecimal(fields[2])).isEqualByComparingTo(new BigDecimal(row.get(2).toString()));
        }
    }

    /**
     * Starts {@code entrypoint + args} inside {@code rootfs}: a private mount namespace gets this
     * machine's /proc and /dev (what a runtime provides) and ends, with its mounts, when the process
     * does; {@code --kill-child} passes a stop on to the JVM.
     */
    private static Process start(Path rootfs, String user, List<String> entrypoint, List<String> args, List<Process> started) throws IOException {
        List<String> command = new ArrayList<>(List.of("unshare", "--mount", "--kill-child=SIGTERM", "sh", "-c",
                "root=\"$0\"; user=\"$1\"; shift; mount -t proc proc \"$root/proc\" && mount --rbind /dev \"$root/dev\""
                        + " && exec chroot --userspec=\"$user\" \"$root\" \"$@\"",
                rootfs.toString(), user));
        command.addAll(entrypoint);
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
        Process process = builder.start();
        started.add(process);
        return process;
    }

    /** Reads {@code process}'s output until a line contains {@code text} (up to 60 s); the rest is drained in the background. */
    private static void awaitLine(Process process, String text) throws Exception {
        BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        CompletableFuture<Boolean> found = CompletableFuture.supplyAsync(() -> {
            try {
                String line;
                while ((line = reader.readLine()) != null) {
                    seen.append(line).append('\n');
                    if (line.contains(text)) {
                        return true;
                    }
                }
                return false;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        boolean ok = found.get(60, TimeUnit.SECONDS);
        assertThat(ok).as("'%s' in the output:%n%s", text, seen).isTrue();
        Thread drain = new Thread(() -> {
            try {
                reader.transferTo(java.io.Writer.nullWriter());
            } catch (IOException ignored) {
                // the process ended
            }
        }, "image-run-drain");
        drain.setDaemon(true);
        drain.start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
