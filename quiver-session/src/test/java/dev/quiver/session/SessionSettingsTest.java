package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.compression.IpcCompression;
import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Setting;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One typed registry behind SET, the builder, SHOW SETTINGS and current_setting: defaults, parsing, one error for a bad value. */
class SessionSettingsTest {
    private QuerySession session;

    @BeforeEach
    void open() {
        session = QuerySession.builder().catalog(TestTables.catalog()).targetPartitions(2).build();
    }

    @AfterEach
    void close() {
        session.close();
    }

    @Test
    void defaultsAreTheDesigns() {
        Settings defaults = SessionSettings.REGISTRY.defaults();
        assertThat(defaults.get(DistributedSettings.DYNAMIC_TASK_COUNT)).isFalse();
        assertThat(defaults.get(DistributedSettings.DYNAMIC_BYTES_PER_PARTITION)).isEqualTo(16L << 20);
        assertThat(defaults.get(DistributedSettings.MAX_TASKS_PER_STAGE)).isZero();
        assertThat(defaults.get(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS)).isEqualTo(16L << 20);
        assertThat(defaults.get(DistributedSettings.BROADCAST_JOINS)).isTrue();
        assertThat(defaults.get(DistributedSettings.COMPRESSION)).isEqualTo(IpcCompression.LZ4);
        assertThat(defaults.get(DistributedSettings.COLLECT_METRICS)).isTrue();
        assertThat(defaults.get(DistributedSettings.SAMPLE_BYTES_PER_PARTITION)).isEqualTo(1L << 20);
        assertThat(defaults.get(EngineSettings.BATCH_SIZE)).isEqualTo(8192);
        assertThat(defaults.get(EngineSettings.TARGET_PARTITIONS)).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(defaults.get(SessionSettings.MEMORY_LIMIT)).isEqualTo(Long.MAX_VALUE);
        assertThat(defaults.get(SessionSettings.EXPLAIN_FORMAT)).isEqualTo(SessionSettings.ExplainFormat.TEXT);
    }

    @Test
    void setReadsEachSettingByNameInAnyCase() {
        session.executeScript("SET DISTRIBUTED.MAX_TASKS_PER_STAGE = 3; SET distributed.bytes_per_partition_for_scans = '64MiB';"
                + " SET distributed.broadcast_joins = off; SET distributed.compression TO ZSTD; SET distributed.sample_bytes_per_partition = '512k';"
                + " SET explain_format = dot; SET memory_limit = 'unlimited'; SET hash_join_collect_left_max_rows = 7;"
                + " SET distributed.max_partitions_per_task = 1000");
        Settings settings = session.settings();
        assertThat(settings.get(DistributedSettings.MAX_TASKS_PER_STAGE)).isEqualTo(3);
        assertThat(settings.get(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS)).isEqualTo(64L << 20);
        assertThat(settings.get(DistributedSettings.BROADCAST_JOINS)).isFalse();
        assertThat(settings.get(DistributedSettings.COMPRESSION)).isEqualTo(IpcCompression.ZSTD);
        assertThat(settings.get(DistributedSettings.SAMPLE_BYTES_PER_PARTITION)).isEqualTo(512L << 10);
        assertThat(settings.get(DistributedSettings.MAX_PARTITIONS_PER_TASK)).isEqualTo(1000);
        assertThat(settings.get(SessionSettings.EXPLAIN_FORMAT)).isEqualTo(SessionSettings.ExplainFormat.DOT);
        assertThat(settings.get(dev.quiver.sql.physical.SqlSettings.HASH_JOIN_COLLECT_LEFT_MAX_ROWS)).isEqualTo(7L);
        assertThat(settings.get(EngineSettings.TARGET_PARTITIONS)).isEqualTo(2);
        // the builder's typed and by-name forms give the same value
        try (QuerySession typed = QuerySession.builder().catalog(TestTables.catalog()).set(DistributedSettings.COMPRESSION, IpcCompression.ZSTD)
                .set(DistributedSettings.SAMPLE_BYTES_PER_PARTITION, 512L << 10).build();
                QuerySession named = QuerySession.builder().catalog(TestTables.catalog()).set("distributed.compression", "zstd")
                        .set("DISTRIBUTED.sample_bytes_per_partition", "524288").build()) {
            assertThat(typed.settings()).isEqualTo(named.settings());
        }
    }

    @Test
    void aBadValueIsOneErrorWhicheverWayItComesIn() {
        String expected = "Invalid value '0' for setting batch_size: expected a whole number, at least 1";
        List<ThrowingCallable> ways = List.of(
                () -> session.execute("SET batch_size = 0"),
                () -> QuerySession.builder().catalog(TestTables.catalog()).set("batch_size", "0").build().close(),
                () -> QuerySession.builder().catalog(TestTables.catalog()).set(EngineSettings.BATCH_SIZE, 0).build().close(),
                () -> QuerySession.builder().catalog(TestTables.catalog()).batchSize(0).build().close());
        for (ThrowingCallable way : ways) {
            assertThatThrownBy(way).isInstanceOfSatisfying(QuiverException.class, e -> {
                assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION);
                assertThat(e.getMessage()).isEqualTo(expected);
            });
        }
        assertInvalid(() -> session.execute("SET distributed.compression = 'snappy'"), "distributed.compression", "'snappy'", "one of lz4, zstd, none");
        assertInvalid(() -> session.execute("SET distributed.broadcast_joins = maybe"), "distributed.broadcast_joins", "'maybe'", "true or false");
        assertInvalid(() -> session.execute("SET distributed.bytes_per_partition_for_scans = lots"), "'lots'", "a size such as 16MiB");
        assertInvalid(() -> session.execute("SET distributed.max_tasks_per_stage = -1"), "distributed.max_tasks_per_stage", "-1", "at least 0");
        assertInvalid(() -> session.execute("SET distributed.max_partitions_per_task = 0"), "distributed.max_partitions_per_task", "'0'", "at least 1");
        assertInvalid(() -> session.execute("SET explain_format = svg"), "explain_format", "'svg'", "one of text, dot");
        assertInvalid(() -> session.execute("SET distributed.heartbeat_timeout_ms = 500"), "distributed.heartbeat_interval_ms (1000) must be below "
                + "distributed.heartbeat_timeout_ms (500)");
        assertInvalid(() -> session.execute("SET distributed.parallelism = 3"), "Unknown setting 'distributed.parallelism'",
                "distributed.max_tasks_per_stage", "batch_size");
        // nothing changed, and the session runs queries
        assertThat(session.settings()).isEqualTo(SessionSettings.REGISTRY.defaults().with(EngineSettings.TARGET_PARTITIONS, 2));
        assertThat(session.executeScript("select count(*) from t1").rows()).containsExactly(List.of(10L));
    }

    @Test
    void settingsTiedByARuleMayChangeTogetherInTheBuilder() {
        try (QuerySession slow = QuerySession.builder().catalog(TestTables.catalog()).set("distributed.heartbeat_interval_ms", "6000")
                .set("distributed.heartbeat_timeout_ms", "20000").build()) {
            assertThat(slow.settings().get(DistributedSettings.HEARTBEAT_INTERVAL_MS)).isEqualTo(6000L);
        }
    }

    private static void assertInvalid(ThrowingCallable call, String... mentioned) {
        assertThatThrownBy(call).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION);
            assertThat(e.getMessage()).contains(mentioned);
        });
    }

    @Test
    void showSettingsListsEverySettingWithValueTypeDefaultAndDescription() {
        session.executeScript("SET distributed.compression = zstd; SET batch_size = 100");
        QueryResult shown = session.executeScript("show settings");
        assertThat(shown.columnNames()).containsExactly("name", "value", "type", "default", "description");
        assertThat(shown.rows()).extracting(row -> row.get(0))
                .containsExactlyElementsOf(SessionSettings.REGISTRY.settings().stream().map(Setting::name).toList());
        assertThat(shown.rows()).contains(List.of("distributed.compression", "zstd", "lz4 | zstd | none", "lz4", DistributedSettings.COMPRESSION.doc()),
                List.of("batch_size", "100", "integer", "8192", EngineSettings.BATCH_SIZE.doc()),
                List.of("distributed.sample_bytes_per_partition", "1MiB", "size", "1MiB", DistributedSettings.SAMPLE_BYTES_PER_PARTITION.doc()),
                List.of("memory_limit", "unlimited", "size or unlimited", "unlimited in Java; 3GiB in the CLI", SessionSettings.MEMORY_LIMIT.doc()));
    }

    @Test
    void currentSettingIsTheValueAsShown() {
        assertThat(value("select current_setting('batch_size') as b")).isEqualTo("8192");
        session.executeScript("SET batch_size = 100; SET distributed.compression = zstd; create view v as select current_setting('batch_size') as b");
        assertThat(value("select current_setting('BATCH_SIZE')")).isEqualTo("100");
        assertThat(value("select b from v")).isEqualTo("100");
        assertThat(value("select count(*) from t1 where current_setting('distributed.compression') = 'zstd'")).isEqualTo(10L);
        assertThat(value("select current_setting('distributed.bytes_per_partition_for_scans')")).isEqualTo("16MiB");
        assertThatThrownBy(() -> session.executeScript("select\n current_setting('no_such')")).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION);
            assertThat(e.getMessage()).contains("Unknown setting 'no_such'");
            assertThat(e.position()).hasValueSatisfying(p -> assertThat(p.line()).isEqualTo(2));
        });
        assertThatThrownBy(() -> session.executeScript("select current_setting(name) from t1")).isInstanceOfSatisfying(QuiverException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }

    private Object value(String sql) {
        return session.executeScript(sql).rows().get(0).get(0);
    }

}
