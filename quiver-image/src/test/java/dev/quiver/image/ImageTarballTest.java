package dev.quiver.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The image tarball the build wrote (Jib {@code buildTar}, bound before the tests): what
 * {@code docker load} would get, read without a daemon. Its layers are intact (each blob's and each
 * tar's sha256 match the manifest and the config's diff_ids), the entrypoint runs the CLI with the
 * JVM flags of the root pom, and the files the entrypoint needs are in the layers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ImageTarballTest {
    private ImageTarball image;

    @BeforeAll
    void read() {
        image = ImageTarball.read(Path.of(System.getProperty("quiver.image.tar")));
    }

    @Test
    void theLayersAreIntactAndNamedByTheirDigests() {
        JsonNode diffIds = image.config().get("rootfs").get("diff_ids");
        assertThat(image.layers()).hasSize(diffIds.size()).hasSizeGreaterThanOrEqualTo(3);
        for (int i = 0; i < image.layers().size(); i++) {
            ImageTarball.Layer layer = image.layers().get(i);
            assertThat(layer.diffId()).as("uncompressed sha256 of %s", layer.blob()).isEqualTo(diffIds.get(i).asText());
            assertThat(layer.blob()).as("blob name").isEqualTo(layer.blobDigest().substring("sha256:".length()) + ".tar.gz");
            assertThat(layer.files()).as("files of %s", layer.blob()).isNotEmpty();
        }
        assertThat(image.manifest().get("RepoTags").get(0).asText()).isEqualTo(System.getProperty("quiver.image"));
        assertThat(image.config().get("os").asText()).isEqualTo("linux");
        assertThat(image.config().get("architecture").asText()).isEqualTo("amd64");
    }

    @Test
    void theEntrypointRunsTheCliWithTheProjectsJvmFlags() {
        JsonNode config = image.config().get("config");
        List<String> entrypoint = ImageTarball.strings(config.get("Entrypoint"));
        List<String> flags = Arrays.asList(System.getProperty("quiver.jvm.flags").trim().split("\\s+"));
        assertThat(entrypoint.get(0)).isEqualTo("/opt/java/bin/java");
        assertThat(entrypoint.subList(1, 1 + flags.size())).as("the root pom's quiver.jvm.flags").isEqualTo(flags);
        assertThat(entrypoint.subList(entrypoint.size() - 3, entrypoint.size())).containsExactly("-cp", "@/app/jib-classpath-file",
                "dev.quiver.cli.QuiverCli");
        assertThat(entrypoint).contains("-Djava.util.logging.config.file=/etc/quiver/logging.properties");
        assertThat(ImageTarball.strings(config.get("Cmd"))).containsExactly("--help");
        assertThat(ImageTarball.strings(config.get("Env"))).contains("PATH=/opt/java/bin", "JAVA_HOME=/opt/java");
        assertThat(config.get("User").asText()).isEqualTo("65532:65532");
        assertThat(config.get("WorkingDir").asText()).isEqualTo("/data");
        assertThat(config.get("ExposedPorts").has("31337/tcp")).isTrue();
    }

    @Test
    void theLayersHoldTheRuntimeItsLibrariesAndTheClassPath() {
        assertThat(image.file("opt/java/bin/java").mode()).as("java's mode").isEqualTo(0755);
        assertThat(image.file("opt/java/lib/server/libjvm.so")).isNotNull();
        assertThat(image.file("opt/java/lib/modules").size()).as("the jlink'd module image").isGreaterThan(10L << 20);
        assertThat(image.file("lib64/ld-linux-x86-64.so.2")).as("the dynamic loader java's ELF header names").isNotNull();
        assertThat(image.file("lib/x86_64-linux-gnu/libc.so.6")).isNotNull();
        assertThat(image.file("etc/quiver/logging.properties")).isNotNull();
        assertThat(new String(image.file("etc/passwd").content(), StandardCharsets.UTF_8)).contains(":65532:65532:");
        assertThat(image.file("tmp").mode()).isEqualTo(0777);
        assertThat(image.file("data").mode()).isEqualTo(0777);

        List<String> classPath = List.of(new String(image.file("app/jib-classpath-file").content(), StandardCharsets.UTF_8).trim().split(":"));
        List<String> missing = new ArrayList<>();
        for (String entry : classPath) {
            // Jib always lists /app/classes; this module has no classes of its own (the CLI is a jar in /app/libs)
            if (!entry.equals("/app/classes") && image.file(entry.substring(1)) == null) {
                missing.add(entry);
            }
        }
        assertThat(missing).as("class path entries in no layer").isEmpty();
        // a reactor build that stops before `package` hands Jib the modules' target/classes directories, which it
        // cannot pack: the image is built by `package` or later (verify) only
        assertThat(classPath).as("class path").noneMatch(entry -> entry.endsWith("/classes.jar"));
        assertThat(classPath).anyMatch(entry -> entry.matches("/app/libs/quiver-cli-.*\\.jar"))
                .anyMatch(entry -> entry.matches("/app/libs/quiver-distributed-.*\\.jar"))
                .noneMatch(entry -> entry.contains("duckdb"));
    }
}
