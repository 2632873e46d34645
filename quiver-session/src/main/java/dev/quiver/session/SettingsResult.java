package dev.quiver.session;

import dev.quiver.engine.config.Setting;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/** The result of {@code SHOW SETTINGS}: one row per setting of the session's registry, in its order. */
final class SettingsResult {
    static final Schema SCHEMA = new Schema(List.of(QuiverTypes.field("name", QuiverTypes.UTF8, false),
            QuiverTypes.field("value", QuiverTypes.UTF8, false), QuiverTypes.field("type", QuiverTypes.UTF8, false),
            QuiverTypes.field("default", QuiverTypes.UTF8, false), QuiverTypes.field("description", QuiverTypes.UTF8, false)));

    private SettingsResult() {}

    /** The rows of {@code settings}: name, value, type, default, description. */
    static List<List<Object>> rows(Settings settings) {
        List<List<Object>> rows = new ArrayList<>();
        for (Setting<?> setting : settings.registry().settings()) {
            rows.add(List.of(setting.name(), settings.display(setting), setting.type().name(), setting.defaultText(), setting.doc()));
        }
        return rows;
    }
}
