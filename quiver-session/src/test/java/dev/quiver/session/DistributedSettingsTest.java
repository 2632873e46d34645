package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.compression.ExchangeCompression;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import org.junit.jupiter.api.Test;

/** The {@code distributed.*} settings: defaults of DESIGN §4, parsing, validation. */
class DistributedSettingsTest {
    private final SessionSettings defaults = new SessionSettings(2, 8192, Long.MAX_VALUE);

    @Test
    void defaultsAreTheDesigns() {
        DistributedSettings settings = defaults.distributed();
        assertThat(settings.dynamicTaskCount()).isFalse();
        assertThat(settings.dynamicBytesPerPartition()).isEqualTo(16L << 20);
        assertThat(settings.maxTasksPerStage()).isZero();
        assertThat(settings.bytesPerPartitionForScans()).isEqualTo(16L << 20);
        assertThat(settings.broadcastJoins()).isTrue();
        assertThat(settings.compression()).isEqualTo(ExchangeCompression.LZ4);
        assertThat(settings.collectMetrics()).isTrue();
        assertThat(settings.sampleBytesPerPartition()).isEqualTo(1L << 20);
        assertThat(defaults.explainFormat()).isEqualTo(SessionSettings.ExplainFormat.TEXT);
    }

    @Test
    void setParsesEachSettingByName() {
        SessionSettings changed = defaults.with("DISTRIBUTED.MAX_TASKS_PER_STAGE", "3")
                .with("distributed.bytes_per_partition_for_scans", "64MiB")
                .with("distributed.broadcast_joins", "off")
                .with("distributed.compression", "ZSTD")
                .with("distributed.collect_metrics", "false")
                .with("distributed.dynamic_task_count", "true")
                .with("distributed.dynamic_bytes_per_partition", "8MiB")
                .with("distributed.sample_bytes_per_partition", "512KiB")
                .with("distributed.max_partitions_per_task", "1000")
                .with("explain_format", "dot");
        DistributedSettings settings = changed.distributed();
        assertThat(settings).isEqualTo(new DistributedSettings(true, 8L << 20, 3, 64L << 20, false, ExchangeCompression.ZSTD, false,
                512L << 10, 1000, 5000, 1000));
        assertThat(changed.explainFormat()).isEqualTo(SessionSettings.ExplainFormat.DOT);
        assertThat(changed.targetPartitions()).isEqualTo(2);
        assertThat(settings.asMap()).containsEntry("distributed.compression", "zstd").containsEntry("distributed.max_tasks_per_stage", "3");
    }

    @Test
    void badValuesAndUnknownNamesAreConfigurationErrors() {
        assertThatThrownBy(() -> defaults.with("distributed.compression", "snappy")).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION);
            assertThat(e.getMessage()).contains("lz4, zstd or none");
        });
        assertThatThrownBy(() -> defaults.with("distributed.max_tasks_per_stage", "-1")).hasMessageContaining("max_tasks_per_stage");
        assertThatThrownBy(() -> defaults.with("distributed.broadcast_joins", "maybe")).hasMessageContaining("true or false");
        assertThatThrownBy(() -> defaults.with("distributed.bytes_per_partition_for_scans", "lots")).hasMessageContaining("'lots'");
        assertThatThrownBy(() -> defaults.with("distributed.heartbeat_timeout_ms", "500")).hasMessageContaining("heartbeat");
        assertThatThrownBy(() -> defaults.with("distributed.parallelism", "3")).isInstanceOfSatisfying(QuiverException.class,
                e -> assertThat(e.getMessage()).contains("Unknown setting", "distributed.max_tasks_per_stage"));
        assertThatThrownBy(() -> defaults.with("explain_format", "svg")).hasMessageContaining("text or dot");
    }
}
