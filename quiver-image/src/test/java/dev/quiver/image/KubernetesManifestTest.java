package dev.quiver.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.quiver.cli.QuiverCli;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * deploy/kubernetes/quiver.yaml: each document is valid against the Kubernetes API's schemas (the
 * kubernetes-models validator from npm, run with node), and the documents fit together and with
 * the image: the containers run the image the build writes, as its user, with arguments the CLI
 * itself accepts; the services select the pods and ports they name; the coordinator's
 * {@code --workers} lists every worker pod of the StatefulSet by its stable DNS name; both read
 * the cluster secret from where the Secret is mounted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubernetesManifestTest {
    private static final Path DEPLOY = Path.of(System.getProperty("quiver.deploy.dir"), "kubernetes");
    private static final Path MANIFEST = DEPLOY.resolve("quiver.yaml");

    private List<JsonNode> documents;

    @BeforeAll
    void read() throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        documents = yaml.readerFor(JsonNode.class).<JsonNode>readValues(MANIFEST.toFile()).readAll().stream()
                .filter(node -> node != null && !node.isMissingNode() && !node.isNull()).toList();
    }

    @Test
    void everyDocumentIsValidAgainstTheKubernetesSchemas(@TempDir Path work) throws Exception {
        assumeTrue(HostTools.onPath("node") && HostTools.onPath("npm"), "the schema validator runs on node (npm's kubernetes-models)");
        for (String file : List.of("package.json", "package-lock.json", "validate.mjs")) {
            Files.copy(DEPLOY.resolve("validate").resolve(file), work.resolve(file));
        }
        Output install = run(work, "npm", "ci", "--prefer-offline", "--no-audit", "--no-fund");
        assertThat(install.exit()).as("npm ci in %s:%n%s", work, install.text()).isZero();
        Output validation = run(work, "node", "validate.mjs", MANIFEST.toString());
        assertThat(validation.exit()).as("the validator's output:%n%s", validation.text()).isZero();
        assertThat(validation.text().lines().filter(line -> line.startsWith("VALID ")).count()).isEqualTo(documents.size());
    }

    @Test
    void theWorkloadsRunTheBuiltImageAsItsUserWithArgumentsTheCliAccepts() {
        ImageTarball image = ImageTarball.read(Path.of(System.getProperty("quiver.image.tar")));
        long imageUid = Long.parseLong(image.config().get("config").get("User").asText().split(":")[0]);
        for (JsonNode workload : List.of(one("StatefulSet"), one("Deployment"))) {
            JsonNode pod = workload.at("/spec/template/spec");
            assertThat(pod.at("/securityContext/runAsUser").asLong()).isEqualTo(imageUid);
            JsonNode container = pod.get("containers").get(0);
            assertThat(container.get("image").asText()).isEqualTo(System.getProperty("quiver.image"));
            List<String> args = ImageTarball.strings(container.get("args"));
            StringWriter err = new StringWriter();
            CommandLine cli = QuiverCli.commandLine(new ByteArrayInputStream(new byte[0]), new PrintWriter(new StringWriter()), new PrintWriter(err));
            CommandLine.ParseResult parsed = cli.parseArgs(args.toArray(String[]::new));
            assertThat(parsed.subcommand()).as("the subcommand of %s", args).isNotNull();
            assertThat(parsed.subcommand().commandSpec().name()).isEqualTo(workload.get("kind").asText().equals("StatefulSet") ? "worker" : "server");
        }
    }

    @Test
    void theServicesSelectThePodsAndPortsTheyName() {
        JsonNode workers = one("StatefulSet");
        JsonNode headless = service(workers.at("/spec/serviceName").asText());
        assertThat(headless.at("/spec/clusterIP").asText()).as("a headless service").isEqualTo("None");
        assertSelects(headless, workers, "--port");
        JsonNode coordinator = one("Deployment");
        List<JsonNode> others = documents.stream().filter(d -> d.get("kind").asText().equals("Service") && d != headless).toList();
        assertThat(others).hasSize(1);
        assertSelects(others.get(0), coordinator, "--port");
    }

    @Test
    void theCoordinatorNamesEveryWorkerPodByItsStableName() {
        JsonNode workers = one("StatefulSet");
        int port = headlessPort(workers);
        String service = workers.at("/spec/serviceName").asText();
        List<String> args = ImageTarball.strings(one("Deployment").at("/spec/template/spec/containers/0/args"));
        String list = option(args, "--workers").orElseThrow();
        if (list.startsWith("dns:")) {
            assertThat(list).isIn("dns:" + service + ":" + port);
        } else {
            List<String> expected = IntStream.range(0, workers.at("/spec/replicas").asInt())
                    .mapToObj(i -> workers.at("/metadata/name").asText() + "-" + i + "." + service + ":" + port).toList();
            assertThat(List.of(list.split(","))).as("--workers against the StatefulSet's replicas").isEqualTo(expected);
        }
    }

    @Test
    void bothReadTheClusterSecretWhereTheSecretIsMounted() {
        JsonNode secret = one("Secret");
        JsonNode keys = secret.has("stringData") ? secret.get("stringData") : secret.get("data");
        for (JsonNode workload : List.of(one("StatefulSet"), one("Deployment"))) {
            JsonNode pod = workload.at("/spec/template/spec");
            JsonNode container = pod.get("containers").get(0);
            String file = option(ImageTarball.strings(container.get("args")), "--cluster-secret-file").orElseThrow();
            String volume = null;
            for (JsonNode v : pod.get("volumes")) {
                if (v.at("/secret/secretName").asText().equals(secret.at("/metadata/name").asText())) {
                    volume = v.get("name").asText();
                }
            }
            assertThat(volume).as("a volume of the Secret in %s", workload.at("/metadata/name").asText()).isNotNull();
            String mountPath = null;
            for (JsonNode mount : container.get("volumeMounts")) {
                if (mount.get("name").asText().equals(volume)) {
                    mountPath = mount.get("mountPath").asText();
                }
            }
            assertThat(mountPath).isNotNull();
            assertThat(file).startsWith(mountPath + "/");
            assertThat(keys.has(file.substring(mountPath.length() + 1))).as("the key %s in the Secret", file).isTrue();
        }
    }

    /** {@code service} selects {@code workload}'s pods, and its target port is a named container port that the CLI's {@code portOption} gives. */
    private static void assertSelects(JsonNode service, JsonNode workload, String portOption) {
        JsonNode labels = workload.at("/spec/template/metadata/labels");
        service.at("/spec/selector").fields().forEachRemaining(label ->
                assertThat(labels.path(label.getKey()).asText()).as("pod label %s", label.getKey()).isEqualTo(label.getValue().asText()));
        JsonNode container = workload.at("/spec/template/spec/containers/0");
        JsonNode servicePort = service.at("/spec/ports/0");
        JsonNode containerPort = null;
        for (JsonNode port : container.get("ports")) {
            if (port.get("name").asText().equals(servicePort.get("targetPort").asText())) {
                containerPort = port;
            }
        }
        assertThat(containerPort).as("the container port %s", servicePort.get("targetPort")).isNotNull();
        assertThat(option(ImageTarball.strings(container.get("args")), portOption)).contains(containerPort.get("containerPort").asText());
    }

    private int headlessPort(JsonNode workers) {
        return service(workers.at("/spec/serviceName").asText()).at("/spec/ports/0/port").asInt();
    }

    private JsonNode service(String name) {
        return documents.stream().filter(d -> d.get("kind").asText().equals("Service") && d.at("/metadata/name").asText().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no Service " + name + " in " + MANIFEST));
    }

    private JsonNode one(String kind) {
        List<JsonNode> found = documents.stream().filter(d -> d.get("kind").asText().equals(kind)).toList();
        assertThat(found).as("documents of kind %s", kind).hasSize(1);
        return found.get(0);
    }

    /** The value of {@code --name=value} or {@code --name value} in {@code args}. */
    private static Optional<String> option(List<String> args, String name) {
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).startsWith(name + "=")) {
                return Optional.of(args.get(i).substring(name.length() + 1));
            }
            if (args.get(i).equals(name) && i + 1 < args.size()) {
                return Optional.of(args.get(i + 1));
            }
        }
        return Optional.empty();
    }


    private record Output(int exit, String text) {}

    private static Output run(Path dir, String... command) throws Exception {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return new Output(-1, text + "\n(timed out)");
        }
        return new Output(process.exitValue(), text);
    }
}
