package dev.quiver.distributed.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.distributed.codec.PlanCodec;
import dev.quiver.engine.compression.IpcCompression;
import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.protocol.FlightErrors;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskRequest;
import dev.quiver.distributed.protocol.WireFormat;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.memory.MemoryScanExec;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** A task request carries its settings typed, and a worker refuses a bad one naming the setting and the value. */
class TaskSettingsWireTest {
    private static final Schema SCHEMA = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true))));
    private static final WireFormat WIRE = new WireFormat(PlanCodec.create());
    private static final ObjectMapper JSON = new ObjectMapper();

    private static TaskRequest request(Settings settings) {
        return new TaskRequest(new TaskId("s1", 1, 0), MemoryScanExec.split(SCHEMA, List.of(List.of(1L)), 1), Optional.empty(), settings,
                TestCluster.VERSION);
    }

    private static Settings changed() {
        return DistributedSettings.TASK_REGISTRY.defaults().with(EngineSettings.BATCH_SIZE, 100).with(DistributedSettings.COMPRESSION,
                IpcCompression.ZSTD).with(DistributedSettings.BROADCAST_JOINS, false).with(DistributedSettings.SAMPLE_BYTES_PER_PARTITION, 3L << 20);
    }

    @Test
    void settingsTravelAsJsonOfTheirTypes() throws Exception {
        byte[] bytes = WIRE.encodeRequest(request(changed()));
        JsonNode settings = JSON.readTree(bytes).get("settings");
        assertThat(settings.get("batch_size").isIntegralNumber()).isTrue();
        assertThat(settings.get("batch_size").asLong()).isEqualTo(100);
        assertThat(settings.get("distributed.broadcast_joins").isBoolean()).isTrue();
        assertThat(settings.get("distributed.compression").textValue()).isEqualTo("zstd");
        assertThat(settings.get("distributed.sample_bytes_per_partition").asLong()).isEqualTo(3L << 20);
        // every task setting travels, defaults too, so that both ends agree whatever their own defaults
        assertThat(settings.size()).isEqualTo(DistributedSettings.TASK_REGISTRY.settings().size());

        TaskRequest decoded = WIRE.decodeRequest(bytes, TestCluster.VERSION);
        assertThat(decoded.settings()).isEqualTo(changed());
        assertThat(decoded.settings().get(DistributedSettings.COMPRESSION)).isEqualTo(IpcCompression.ZSTD);
        assertThat(decoded.settings().get(EngineSettings.BATCH_SIZE)).isEqualTo(100);
    }

    @Test
    void aValueOfAnotherTypeOrOutOfRangeIsRefusedNamingTheSetting() {
        assertRefused(s -> s.put("distributed.compression", "snappy"), "distributed.compression", "snappy", "one of lz4, zstd, none");
        assertRefused(s -> s.put("batch_size", "100"), "batch_size", "100", "a whole number");
        assertRefused(s -> s.put("batch_size", 0), "batch_size", "0", "at least 1");
        assertRefused(s -> s.put("distributed.broadcast_joins", 1), "distributed.broadcast_joins", "1", "true or false");
        assertRefused(s -> s.put("distributed.no_such_thing", 1), "distributed.no_such_thing", "Unknown setting", "batch_size");
        assertRefused(s -> s.put("distributed.heartbeat_interval_ms", 40000), "distributed.heartbeat_interval_ms", "40000",
                "must be below distributed.heartbeat_timeout_ms");
    }

    private static void assertRefused(Consumer<ObjectNode> corrupt, String... mentioned) {
        byte[] bytes = corrupted(corrupt);
        assertThatThrownBy(() -> WIRE.decodeRequest(bytes, TestCluster.VERSION))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION))
                .hasMessageContainingAll(mentioned);
    }

    private static byte[] corrupted(Consumer<ObjectNode> corrupt) {
        try {
            ObjectNode tree = (ObjectNode) JSON.readTree(WIRE.encodeRequest(request(DistributedSettings.TASK_REGISTRY.defaults())));
            corrupt.accept((ObjectNode) tree.get("settings"));
            return JSON.writeValueAsBytes(tree);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void workerRefusesABadSettingAtTaskStartAndStaysClean() {
        try (TestCluster cluster = new TestCluster(1)) {
            FlightClient client = cluster.connections.client(cluster.worker(0).address());
            byte[] bad = corrupted(s -> s.put("distributed.compression", "snappy"));
            try (FlightClient.ExchangeReaderWriter exchange = client.doExchange(FlightDescriptor.command(bad))) {
                assertThatThrownBy(() -> exchange.getReader().next()).isInstanceOfSatisfying(FlightRuntimeException.class, e -> {
                    assertThat(FlightErrors.remoteError(e).orElseThrow().code()).isEqualTo(ErrorCode.INVALID_CONFIGURATION);
                    assertThat(e.getMessage()).contains("distributed.compression").contains("snappy");
                });
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            cluster.assertWorkersClean();
        }
    }
}
