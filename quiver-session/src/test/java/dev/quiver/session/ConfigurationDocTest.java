package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.config.Setting;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md lists exactly the settings the registry declares, as {@link SettingsDoc}
 * renders them. Run with {@code -Dquiver.docs.update=true} to rewrite the page's generated tables
 * (every test then reads the rewritten page, so one run regenerates it and passes).
 */
class ConfigurationDocTest {
    private static final Path PAGE = Path.of("..", "docs", "configuration.md");

    /** The page; in update mode, first rewritten from the registry. */
    private static synchronized String page() throws IOException {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        if (Boolean.getBoolean("quiver.docs.update")) {
            String rendered = SettingsDoc.render(page);
            if (!rendered.equals(page)) {
                Files.writeString(PAGE, rendered, StandardCharsets.UTF_8);
            }
            return rendered;
        }
        return page;
    }

    @Test
    void theGeneratedTablesAreUpToDate() throws IOException {
        String page = page();
        assertThat(page).as("docs/configuration.md is out of date with the settings registry; regenerate it with "
                + "./mvnw -B -q -pl quiver-session -am test -Dtest=ConfigurationDocTest -Dsurefire.failIfNoSpecifiedTests=false -Dquiver.docs.update=true")
                .isEqualTo(SettingsDoc.render(page));
    }

    @Test
    void everySessionSettingIsOnThePageOnce() throws IOException {
        String page = page();
        for (Setting<?> setting : SessionSettings.REGISTRY.settings()) {
            assertThat(page.split("\\| `" + Pattern.quote(setting.name()) + "` \\|", -1)).as(setting.name()).hasSize(2);
        }
    }
}
