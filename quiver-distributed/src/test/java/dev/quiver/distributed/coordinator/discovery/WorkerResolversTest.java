package dev.quiver.distributed.coordinator.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code --workers} forms and what each resolves to; the DNS one against a lookup table the test changes (the real lookup: DnsDiscoveryTest). */
class WorkerResolversTest {
    @TempDir
    Path dir;

    @Test
    void parsesTheThreeFormsAndTheirUnion() throws IOException {
        Path file = dir.resolve("workers.txt");
        Files.writeString(file, "# the pool\n10.0.0.3:7070\n\n10.0.0.4:7070  # second\n10.0.0.3:7070\n", StandardCharsets.UTF_8);

        assertThat(WorkerResolvers.parse(List.of("h1:7001", "h2:7002")).resolve())
                .containsExactly(new WorkerAddress("h1", 7001), new WorkerAddress("h2", 7002));
        WorkerResolver fromFile = WorkerResolvers.parse(List.of("file:" + file));
        assertThat(fromFile).isInstanceOf(FileWorkerResolver.class);
        assertThat(fromFile.resolve()).containsExactly(new WorkerAddress("10.0.0.3", 7070), new WorkerAddress("10.0.0.4", 7070));
        assertThat(WorkerResolvers.parse(List.of("dns:quiver-workers:7070"))).isInstanceOf(DnsWorkerResolver.class)
                .extracting(WorkerResolver::describe).isEqualTo("dns:quiver-workers:7070");

        WorkerResolver union = WorkerResolvers.parse(List.of("file:" + file, "10.0.0.4:7070", "h9:1"));
        assertThat(union.resolve()).containsExactly(new WorkerAddress("10.0.0.4", 7070), new WorkerAddress("h9", 1), new WorkerAddress("10.0.0.3", 7070));
        assertThat(union.describe()).isEqualTo("10.0.0.4:7070,h9:1,file:" + file);

        assertThatThrownBy(() -> WorkerResolvers.parse(List.of("dns:quiver-workers"))).isInstanceOf(QuiverException.class)
                .hasMessageContaining("quiver-workers").hasMessageContaining("host:port");
        assertThatThrownBy(() -> WorkerResolvers.parse(List.of("file:"))).isInstanceOf(QuiverException.class).hasMessageContaining("file:PATH");
        assertThatThrownBy(() -> WorkerResolvers.parse(List.of("h1:7001", "h1:7001"))).isInstanceOf(QuiverException.class).hasMessageContaining("twice");
    }

    @Test
    void rereadsTheFileAtEveryResolve() throws IOException {
        Path file = dir.resolve("workers.txt");
        Files.writeString(file, "10.0.0.1:7070\n", StandardCharsets.UTF_8);
        FileWorkerResolver resolver = new FileWorkerResolver(file);
        assertThat(resolver.resolve()).containsExactly(new WorkerAddress("10.0.0.1", 7070));

        // replaced atomically with the same size and, likely, the same modification time: still seen
        Path next = dir.resolve("workers.next");
        Files.writeString(next, "10.0.0.2:7070\n", StandardCharsets.UTF_8);
        Files.setLastModifiedTime(next, Files.getLastModifiedTime(file));
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        assertThat(resolver.resolve()).containsExactly(new WorkerAddress("10.0.0.2", 7070));

        Files.writeString(file, "10.0.0.2:7070\nnot-an-address\n", StandardCharsets.UTF_8);
        assertThatThrownBy(resolver::resolve).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION);
            assertThat(e.getMessage()).contains("line 2", file.toString(), "not-an-address");
        });
        Files.delete(file);
        assertThatThrownBy(resolver::resolve).isInstanceOf(QuiverException.class).hasMessageContaining(file + " does not exist");
    }

    @Test
    void dnsNamesEveryAddressOfTheNameSortedAndFollowsItsChanges() throws UnknownHostException {
        Map<String, InetAddress[]> records = new ConcurrentHashMap<>();
        DnsWorkerResolver resolver = new DnsWorkerResolver("quiver-workers", 7070, name -> {
            InetAddress[] found = records.get(name);
            if (found == null) {
                throw new UnknownHostException(name + ": Name or service not known");
            }
            return found;
        });
        assertThatThrownBy(resolver::resolve).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.WORKER_UNREACHABLE);
            assertThat(e.getMessage()).contains("quiver-workers", "dns:quiver-workers:7070", "does not resolve");
        });

        records.put("quiver-workers", new InetAddress[] {ip("10.0.0.9"), ip("10.0.0.2"), ip("fd00::5"), ip("10.0.0.2")});
        assertThat(resolver.resolve()).containsExactly(new WorkerAddress("10.0.0.2", 7070), new WorkerAddress("10.0.0.9", 7070),
                new WorkerAddress("fd00:0:0:0:0:0:0:5", 7070));
        records.put("quiver-workers", new InetAddress[] {ip("10.0.0.9")});
        assertThat(resolver.resolve()).containsExactly(new WorkerAddress("10.0.0.9", 7070));
    }

    private static InetAddress ip(String literal) throws UnknownHostException {
        return InetAddress.getByName(literal);
    }
}
