package dev.quiver.cli;

import dev.quiver.session.SessionSettings;

/** How {@code quiver sql --explain-format} shows plans: as the session renders them, or DOT rendered to SVG by Graphviz. */
enum ExplainOutput {
    /** Indented text. */
    TEXT(SessionSettings.ExplainFormat.TEXT),
    /** Graphviz DOT, printed as it is, for {@code | dot -Tsvg > plan.svg}. */
    DOT(SessionSettings.ExplainFormat.DOT),
    /** SVG, from the DOT through Graphviz's {@code dot -Tsvg} (which must be installed). */
    SVG(SessionSettings.ExplainFormat.DOT);

    private final SessionSettings.ExplainFormat sessionFormat;

    ExplainOutput(SessionSettings.ExplainFormat sessionFormat) {
        this.sessionFormat = sessionFormat;
    }

    /** The format the session renders EXPLAIN in. */
    SessionSettings.ExplainFormat sessionFormat() {
        return sessionFormat;
    }
}
