package dev.quiver.session.distributed;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Linux network namespaces that stand in for other hosts: each namespace has its own address on
 * a bridge in the test's namespace, reached through a veth pair, so traffic between the test's
 * coordinator and the workers, and between the workers, crosses a real network stack (ARP,
 * routing, links that can go down) instead of loopback. Made by the test and removed by
 * {@link #close()}, processes in the namespaces and links included. Needs root and {@code ip}.
 */
final class NetworkNamespaces implements AutoCloseable {
    private static final String SUBNET_PREFIX = "10.213.";

    private final String tag;
    private final int subnet;
    private final List<String> namespaces = new ArrayList<>();
    private boolean bridgeCreated;

    private NetworkNamespaces(String tag, int subnet) {
        this.tag = requireNonNull(tag, "tag");
        this.subnet = subnet;
    }

    /** Whether this machine lets the test make namespaces: root and {@code ip} on the path. */
    static boolean available() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return false;
        }
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, "ip"))) {
                return true;
            }
        }
        return false;
    }

    /** A bridge and {@code count} namespaces on it, host {@code i} at {@link #address(int)}. */
    static NetworkNamespaces create(int count) throws IOException, InterruptedException {
        // A tag of 4 hex digits keeps interface names within Linux's 15 characters and apart from other runs.
        int random = ThreadLocalRandom.current().nextInt(0x10000);
        NetworkNamespaces hosts = new NetworkNamespaces(String.format("%04x", random), 1 + random % 250);
        try {
            hosts.createBridge();
            for (int i = 0; i < count; i++) {
                hosts.createHost(i);
            }
            return hosts;
        } catch (IOException | InterruptedException | RuntimeException e) {
            hosts.close();
            throw e;
        }
    }

    /** The test's own address on the bridge: where the namespaces reach the coordinator. */
    String gatewayAddress() {
        return SUBNET_PREFIX + subnet + ".1";
    }

    /** The address of host {@code i} (its namespace's end of the veth pair). */
    String address(int host) {
        return SUBNET_PREFIX + subnet + "." + (host + 2);
    }

    /** The command prefix that runs a program in host {@code i}'s namespace. */
    List<String> exec(int host) {
        return List.of("ip", "netns", "exec", namespaces.get(host));
    }

    /** Takes host {@code i}'s link down at the bridge: its packets go nowhere, as when a cable is pulled. */
    void cut(int host) throws IOException, InterruptedException {
        ip("link", "set", hostLink(host), "down");
    }

    private void createBridge() throws IOException, InterruptedException {
        ip("link", "add", bridge(), "type", "bridge");
        bridgeCreated = true;
        ip("addr", "add", gatewayAddress() + "/24", "dev", bridge());
        ip("link", "set", bridge(), "up");
    }

    private void createHost(int host) throws IOException, InterruptedException {
        String namespace = "quiver-" + tag + "-" + host;
        ip("netns", "add", namespace);
        namespaces.add(namespace);
        String inside = "qv" + tag + "w" + host;
        ip("link", "add", hostLink(host), "type", "veth", "peer", "name", inside);
        ip("link", "set", inside, "netns", namespace);
        ip("link", "set", hostLink(host), "master", bridge());
        ip("link", "set", hostLink(host), "up");
        ip("-n", namespace, "addr", "add", address(host) + "/24", "dev", inside);
        ip("-n", namespace, "link", "set", inside, "up");
        ip("-n", namespace, "link", "set", "lo", "up");
    }

    private String bridge() {
        return "qv" + tag + "br";
    }

    private String hostLink(int host) {
        return "qv" + tag + "h" + host;
    }

    /** Kills what still runs in the namespaces, then removes them, their links and the bridge. */
    @Override
    public void close() throws IOException, InterruptedException {
        for (String namespace : namespaces) {
            String pids = run(List.of("ip", "netns", "pids", namespace), false).strip();
            if (!pids.isEmpty()) {
                List<String> kill = new ArrayList<>(List.of("kill", "-9"));
                kill.addAll(List.of(pids.split("\\s+")));
                run(kill, false);
            }
            run(List.of("ip", "netns", "del", namespace), false);
        }
        // A namespace outlives its deletion while sockets of it wait to close; its veth pair with it.
        for (int host = 0; host < namespaces.size(); host++) {
            run(List.of("ip", "link", "del", hostLink(host)), false);
        }
        namespaces.clear();
        if (bridgeCreated) {
            run(List.of("ip", "link", "del", bridge()), false);
            bridgeCreated = false;
        }
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        run(command, true);
    }

    private static String run(List<String> command, boolean check) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish in 30 s");
        }
        if (check && process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed (exit " + process.exitValue() + "): " + output.strip());
        }
        return output;
    }
}
