package dev.quiver.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.tpch.AnswerFile;
import dev.quiver.session.tpch.ResultComparator;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's filesystem runs, without a container runtime: its layers are unpacked into a
 * directory and its entrypoint (from the config, as a runtime would take it) is started there under
 * {@code chroot}, as the image's user, in a private mount namespace that has only {@code /proc} and
 * {@code /dev} of this machine, and an {@code /etc/hosts} as a runtime writes one. A {@code quiver worker} and a {@code quiver server} using it, sharing
 * a cluster secret, answer TPC-H query 1 from a {@code quiver sql --server} client, all three in the
 * image's runtime, as the TPC-H answer file says. Needs root (CI has it).
 */
class ImageRunTest {
    private static final int QUERY = 1;

    @Test
    void aWorkerAndAServerStartedByTheEntrypointAnswerADistributedQuery(@TempDir Path dir) throws Exception {
        assumeTrue(isRoot() && HostTools.onPath("unshare") && HostTools.onPath("chroot"), "needs root, unshare and chroot");
        ImageTarball image = ImageTarball.read(Path.of(System.getProperty("quiver.image.tar")));
        Path rootfs = dir.resolve("rootfs");
        image.extract(rootfs);
        Files.createDirectories(rootfs.resolve("proc"));
        Files.createDirectories(rootfs.resolve("dev"));
        Files.writeString(rootfs.resolve("data/cluster-secret"), "a-cluster-secret-for-the-image-test\n");
        // what a container runtime writes (Kubernetes too): without it, the JVM's look-up of its own host name waits on DNS time-outs
        Files.writeString(rootfs.resolve("etc/hosts"), "127.0.0.1 localhost " + InetAddress.getLocalHost().getHostName() + "\n");
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
            Process client = start(rootfs, user, entrypoint, List.of("sql", "--server", "127.0.0.1:" + serverPort, "--format", "csv",
                    // the query's text starts with a "--" comment line: end the options first
                    "--", TpchQueries.query(QUERY)), started);
            String output = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(client.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(client.exitValue()).as("the client's exit code; it printed:%n%s", output).isZero();
            assertMatchesTheAnswerFile(output.strip().lines().toList());
        } finally {
            // the JVMs are unshare's children: they get SIGTERM themselves (unshare ignores it while it waits, and
            // --kill-child's parent-death signal does not survive chroot's change of user)
            for (Process process : started) {
                List<ProcessHandle> jvms = process.descendants().toList();
                jvms.forEach(ProcessHandle::destroy);
                for (ProcessHandle jvm : jvms) {
                    try {
                        jvm.onExit().get(30, TimeUnit.SECONDS);
                    } catch (TimeoutException e) {
                        jvm.destroyForcibly();
                    }
                }
                process.destroyForcibly().waitFor();
            }
        }
    }

    /**
     * The CSV's rows against the answer file: Q1's grouping columns as text, every other column as
     * a decimal (the comparator then allows the answer file's rounding).
     */
    private static void assertMatchesTheAnswerFile(List<String> csv) {
        List<List<Object>> expected = AnswerFile.parse(TpchQueries.answer(QUERY)).rows();
        assertThat(csv).as("csv lines").hasSize(expected.size() + 1);
        List<String> names = List.of(csv.get(0).split(","));
        List<Field> fields = new ArrayList<>();
        for (int c = 0; c < names.size(); c++) {
            ArrowType type = c < 2 ? ArrowType.Utf8.INSTANCE : new ArrowType.Decimal(38, 10, 128);
            fields.add(Field.nullable(names.get(c), type));
        }
        List<List<Object>> actual = new ArrayList<>();
        for (String line : csv.subList(1, csv.size())) {
            String[] values = line.split(",", -1);
            List<Object> row = new ArrayList<>();
            for (int c = 0; c < values.length; c++) {
                row.add(c < 2 ? values[c] : new BigDecimal(values[c]));
            }
            actual.add(row);
        }
        ResultComparator.assertMatches("q" + QUERY + " from the image", new Schema(fields), actual, expected);
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

    /**
     * Waits (up to 60 s) until {@code process} prints a line containing {@code text}; one thread
     * named for the process reads its output to the end, so that it never blocks on a full pipe.
     */
    private static void awaitLine(Process process, String text) throws Exception {
        StringBuffer seen = new StringBuffer();
        CompletableFuture<Boolean> found = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    if (!found.isDone()) {
                        seen.append(line).append('\n');
                        if (line.contains(text)) {
                            found.complete(true);
                        }
                    }
                }
            } catch (IOException e) {
                // the process ended
            } finally {
                found.complete(false);
            }
        }, "image-run-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
        boolean ok = found.get(60, TimeUnit.SECONDS);
        assertThat(ok).as("'%s' in the output:%n%s", text, seen).isTrue();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }
}
