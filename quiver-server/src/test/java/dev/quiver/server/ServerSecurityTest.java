package dev.quiver.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.protocol.ClusterSecret;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.QuerySession;
import dev.quiver.session.tpch.AnswerFile;
import dev.quiver.session.tpch.ResultComparator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Authentication (a users file, a static token) and TLS (the server's port and the workers'), through the Flight SQL JDBC driver. */
class ServerSecurityTest {
    private static final String PLAIN = "useEncryption=false";
    private static final String TOKEN = "0123456789abcdef0123456789abcdef";

    @TempDir
    Path directory;

    @Test
    void usersLogInWithTheirPasswordAndOthersAreRefused() throws Exception {
        Path users = directory.resolve("users");
        Files.writeString(users, "# the server's users\n" + UsersFile.line("alice", "wonder land".toCharArray()) + "\n"
                + UsersFile.line("bob", "builder".toCharArray()) + "\n", StandardCharsets.UTF_8);
        try (ServerFixture fixture = ServerFixture.tpch(0.01, builder -> builder.users(UsersFile.read(users)))) {
            try (Connection alice = fixture.connect(PLAIN, credentials("alice", "wonder land"))) {
                assertThat(count(alice, "select count(*) from nation")).isEqualTo(25);
                // a second statement rides on the bearer token the login returned
                assertThat(count(alice, "select count(*) from region")).isEqualTo(5);
            }
            assertThatThrownBy(() -> fixture.connect(PLAIN, credentials("alice", "wrong")).close())
                    .isInstanceOf(SQLException.class).hasMessageContaining("UNAUTHENTICATED");
            assertThatThrownBy(() -> fixture.connect(PLAIN, credentials("mallory", "builder")).close())
                    .isInstanceOf(SQLException.class).hasMessageContaining("UNAUTHENTICATED");
            assertThatThrownBy(() -> {
                try (Connection anonymous = fixture.connect(PLAIN, new Properties())) {
                    count(anonymous, "select count(*) from nation");
                }
            }).isInstanceOf(SQLException.class).hasMessageContaining("UNAUTHENTICATED");
            assertThatThrownBy(() -> {
                Properties forged = new Properties();
                forged.setProperty("token", "not-a-token-the-server-issued");
                try (Connection connection = fixture.connect(PLAIN, forged)) {
                    count(connection, "select count(*) from nation");
                }
            }).isInstanceOf(SQLException.class).hasMessageContaining("UNAUTHENTICATED");
        }
    }

    @Test
    void aStaticTokenAuthenticates() throws Exception {
        try (ServerFixture fixture = ServerFixture.tpch(0.01, builder -> builder.token(TOKEN))) {
            Properties token = new Properties();
            token.setProperty("token", TOKEN);
            try (Connection connection = fixture.connect(PLAIN, token)) {
                assertThat(count(connection, "select count(*) from nation")).isEqualTo(25);
            }
            Properties wrong = new Properties();
            wrong.setProperty("token", TOKEN.replace('0', '1'));
            assertThatThrownBy(() -> {
                try (Connection connection = fixture.connect(PLAIN, wrong)) {
                    count(connection, "select count(*) from nation");
                }
            }).isInstanceOf(SQLException.class).hasMessageContaining("UNAUTHENTICATED");
        }
    }

    @Test
    void tlsServesClientsThatTrustItsCertificateAndRefusesPlainText() throws Exception {
        TlsFiles tls = TestCertificates.selfSigned(directory);
        try (ServerFixture fixture = ServerFixture.tpch(0.01, builder -> builder.tls(tls))) {
            assertThat(fixture.server().usesTls()).isTrue();
            String encrypted = "useEncryption=true&tlsRootCerts=" + tls.certificate().toAbsolutePath();
            try (Connection connection = fixture.connect(encrypted, new Properties())) {
                assertThat(count(connection, "select count(*) from nation")).isEqualTo(25);
            }
            assertThatThrownBy(() -> {
                try (Connection plain = fixture.connect(PLAIN, new Properties())) {
                    count(plain, "select count(*) from nation");
                }
            }).isInstanceOf(SQLException.class);
            // a client that does not trust the certificate is refused too
            assertThatThrownBy(() -> {
                try (Connection untrusting = fixture.connect("useEncryption=true&useSystemTrustStore=false", new Properties())) {
                    count(untrusting, "select count(*) from nation");
                }
            }).isInstanceOf(SQLException.class);
        }
    }

    /** Workers serving TLS with the cluster secret, their coordinator a server whose clients use TLS too: q1 equal to its answer file. */
    @Test
    void workersServeTlsAndATrustlessCoordinatorIsRefused() throws Exception {
        TlsFiles tls = TestCertificates.selfSigned(directory);
        ClusterSecret secret = ClusterSecret.of("the secret of this test's cluster");
        try (ServerFixture fixture = ServerFixture.tpch(0.01, builder -> builder.tls(tls), 1L << 30, session -> session.localWorkers(2, 256L << 20)
                .localWorkerTls(tls.certificate(), tls.privateKey(), tls.certificate()).clusterSecret(secret)
                .set("distributed.bytes_per_partition_for_scans", "256KiB"));
                Connection connection = fixture.connect("useEncryption=true&tlsRootCerts=" + tls.certificate().toAbsolutePath(), new Properties())) {
            JdbcResults q1 = JdbcTpchTest.run(connection, TpchQueries.query(1));
            ResultComparator.assertMatches("q1", q1.schema(), q1.rows(), AnswerFile.parse(TpchQueries.answer(1)).rows());
            List<WorkerAddress> workers = fixture.session().workers();
            try (TpchCatalog catalog = new TpchCatalog(0.01);
                    QuerySession plain = QuerySession.builder().catalog(catalog).workers(workers).clusterSecret(secret).build()) {
                assertThatThrownBy(() -> plain.executeScript("select n_regionkey, count(*) from nation group by 1")).isInstanceOf(QuiverException.class);
            }
        }
    }

    private static Properties credentials(String user, String password) {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        return properties;
    }

    private static long count(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).isTrue();
            return rows.getLong(1);
        }
    }

}
