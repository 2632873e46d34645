package dev.quiver.session.sqllogic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.config.Settings;
import dev.quiver.session.QuerySession;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs every selected {@code .slt} file ({@link SltFiles}) on one Quiver session of a {@link RunMode}:
 * one dynamic test per record, named {@code file:line}, in file order; then a test that the file
 * left the session as it found it (its views dropped, its settings restored, no memory held).
 * The session is shared by all files of the mode. See README.md beside the files.
 */
@ExtendWith(SuiteDataExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SqlLogicTestBase {
    private QuerySession session;

    abstract RunMode mode();

    abstract QuerySession.Builder configure(QuerySession.Builder builder);

    @BeforeAll
    void start(SuiteData data) {
        session = configure(QuerySession.builder().catalog(data.catalog())).build();
    }

    @AfterAll
    void stop() {
        if (session != null) {
            session.close();
        }
    }

    QuerySession session() {
        return session;
    }

    @TestFactory
    Stream<DynamicNode> files() {
        QuiverRecordRunner runner = new QuiverRecordRunner(session, mode());
        return SltFiles.selected().stream().map(file -> container(file, runner));
    }

    private DynamicContainer container(SltFiles.SltFile file, QuiverRecordRunner runner) {
        URI source = file.path().toUri();
        List<DynamicNode> tests = new ArrayList<>();
        FileState before = new FileState();
        tests.add(DynamicTest.dynamicTest(file.name() + ": start", source, before::capture));
        for (SltRecord record : file.records()) {
            if (record.modes().contains(mode())) {
                tests.add(DynamicTest.dynamicTest(record.where(), URI.create(source + "?line=" + record.line()), () -> runner.run(record)));
            }
        }
        tests.add(DynamicTest.dynamicTest(file.name() + ": end", source, () -> before.restoreAndCheck(file.name())));
        return DynamicContainer.dynamicContainer(file.name(), source, tests.stream());
    }

    /** The session's views and settings when a file started, to undo what the file created and to find what it changed. */
    private final class FileState {
        private Set<String> views = Set.of();
        private Settings settings;

        void capture() {
            views = new TreeSet<>(session.views().keySet());
            settings = session.settings();
        }

        void restoreAndCheck(String file) {
            for (Map.Entry<String, String> view : session.views().entrySet()) {
                if (!views.contains(view.getKey())) {
                    session.execute("DROP VIEW " + view.getKey()).close();
                }
            }
            assertThat(session.settings()).as("%s must SET back what it changed", file).isEqualTo(settings);
            assertThat(session.memoryPool().used()).as("memory held after %s", file).isZero();
        }
    }
}
