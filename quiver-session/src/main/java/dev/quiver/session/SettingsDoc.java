package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Setting;
import dev.quiver.engine.config.SettingsRegistry;
import dev.quiver.engine.config.SettingsRule;
import dev.quiver.engine.source.storage.StorageSettings;
import dev.quiver.sql.physical.SqlSettings;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders the tables of docs/configuration.md from the registries, so that the page says what the
 * code declares. The page's prose is written by hand; each table sits between
 * {@code <!-- BEGIN GENERATED: name -->} and {@code <!-- END GENERATED: name -->}, and
 * {@code ConfigurationDocTest} fails when a table differs from what this renders (and rewrites the
 * page with {@code -Dquiver.docs.update=true}).
 */
public final class SettingsDoc {
    private static final Pattern SECTION = Pattern.compile("(?s)(<!-- BEGIN GENERATED: ([a-z]+) -->\n).*?(<!-- END GENERATED: \\2 -->)");

    /** The generated sections by name: the session's own settings, and the {@code distributed.*} ones. */
    public static final List<Section> SECTIONS = List.of(
            new Section("settings", SettingsRegistry.concat(List.of(EngineSettings.REGISTRY, SessionSettings.SESSION,
                    SqlSettings.REGISTRY))),
            new Section("storage", StorageSettings.REGISTRY),
            new Section("distributed", DistributedSettings.REGISTRY));

    /** One generated table: {@code name} in the markers, the settings it lists. */
    public record Section(String name, SettingsRegistry registry) {
        public Section {
            requireNonNull(name, "name is null");
            requireNonNull(registry, "registry is null");
        }
    }

    private SettingsDoc() {}

    /** The table of {@code registry}: one row per setting (name, type, default, what it does), then its rules. */
    public static String table(SettingsRegistry registry) {
        StringBuilder out = new StringBuilder("| setting | type | default | effect |\n|---|---|---|---|\n");
        for (Setting<?> setting : registry.settings()) {
            String allowed = setting.check().allowed().isEmpty() ? "" : " (" + setting.check().allowed() + ")";
            out.append("| `").append(setting.name()).append("` | ").append(escape(setting.type().name())).append(allowed).append(" | ")
                    .append(escape(setting.defaultText())).append(" | ").append(escape(setting.doc())).append(" |\n");
        }
        for (SettingsRule rule : registry.rules()) {
            out.append("\nAlso: ").append(rule.description().replaceAll("([a-z_]+\\.[a-z_.]+)", "`$1`")).append(".\n");
        }
        return out.toString();
    }

    /** {@code page} with every generated section rendered anew. */
    public static String render(String page) {
        String result = page;
        for (Section section : SECTIONS) {
            Matcher matcher = SECTION.matcher(result);
            boolean found = false;
            StringBuilder rebuilt = new StringBuilder();
            while (matcher.find()) {
                if (matcher.group(2).equals(section.name())) {
                    found = true;
                    matcher.appendReplacement(rebuilt, Matcher.quoteReplacement(matcher.group(1) + table(section.registry()) + matcher.group(3)));
                } else {
                    matcher.appendReplacement(rebuilt, Matcher.quoteReplacement(matcher.group()));
                }
            }
            matcher.appendTail(rebuilt);
            if (!found) {
                throw new IllegalArgumentException("the page has no generated section '" + section.name() + "'");
            }
            result = rebuilt.toString();
        }
        return result;
    }

    private static String escape(String text) {
        return text.replace("|", "\\|");
    }
}
