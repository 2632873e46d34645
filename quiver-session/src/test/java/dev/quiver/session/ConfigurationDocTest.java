package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.config.Setting;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md lists exactly the settings the registry declares, as {@link SettingsDoc}
 * renders them. Run with {@code -Dquiver.docs.update=true} to rewrite the page's generated tables.
 */
class ConfigurationDocTest {
    private static final Path PAGE = Path.of("..", "docs", "configuration.md");

    @Test
    void theGeneratedTablesAreUpToDate() throws IOException {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        String rendered = SettingsDoc.render(page);
        if (Boolean.getBoolean("quiver.docs.update")) {
            Files.writeString(PAGE, rendered, StandardCharsets.UTF_8);
            page = rendered;
        }
        assertThat(page).as("docs/configuration.md is out of date with the settings registry; regenerate it with "
                + "./mvnw -B -q -pl quiver-session -am test -Dtest=ConfigurationDocTest -Dsurefire.failIfNoSpecifiedTests=false -Dquiver.docs.update=true")
                .isEqualTo(rendered);
    }

    @Test
    void everySessionSettingIsOnThePageOnce() throws IOException {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        for (Setting<?> setting : SessionSettings.REGISTRY.settings()) {
            assertThat(page.split("\\| `" + java.util.regex.Pattern.quote(setting.name()) + "` \\|", -1)).as(setting.name()).hasSize(2);
        }
    }
}
