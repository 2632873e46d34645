package dev.quiver.engine.source.json;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Reads a JSON Lines file one object at a time: after {@link #next()}, {@link #parser()} stands
 * before the object's first field. Blank lines are skipped; line numbers count from 1, so an
 * error can name the line.
 */
final class JsonLineReader implements AutoCloseable {
    /** One factory for every reader: Jackson's factories are thread-safe and costly to make. */
    private static final JsonFactory FACTORY = new JsonFactory();

    private final Location file;
    private final BufferedReader lines;
    private String line;
    private long lineNumber;
    private JsonParser parser;

    JsonLineReader(Storage storage, Location file) {
        this.file = requireNonNull(file, "file is null");
        // a decoder that reports malformed input, as Files.newBufferedReader's does
        this.lines = new BufferedReader(new InputStreamReader(storage.open(file, 0), StandardCharsets.UTF_8.newDecoder()));
    }

    /**
     * Moves to the next object; false at the end of the file.
     *
     * @throws QuiverException SOURCE_ERROR naming the file and line when the line is not a JSON object
     */
    boolean next() {
        closeParser();
        try {
            do {
                line = lines.readLine();
                lineNumber++;
                if (line == null) {
                    return false;
                }
            } while (line.isBlank());
            parser = FACTORY.createParser(line);
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw error("is not a JSON object");
            }
            return true;
        } catch (IOException e) {
            throw error(e);
        }
    }

    JsonParser parser() {
        return parser;
    }

    /** The text of the value the parser stands at (an object or array as written), leaving the parser after it. */
    String valueText() throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
            int start = (int) parser.currentTokenLocation().getCharOffset();
            parser.skipChildren();
            int end = (int) parser.currentLocation().getCharOffset();
            return line.substring(start, end);
        }
        return parser.getText();
    }

    long lineNumber() {
        return lineNumber;
    }

    long lineBytes() {
        return line == null ? 0 : line.length() + 1L;
    }

    Location file() {
        return file;
    }

    QuiverException error(String problem) {
        return new QuiverException(ErrorCode.SOURCE_ERROR, "JSON file " + file + " line " + lineNumber + ": " + problem);
    }

    /** A parse failure of the current line, with Jackson's reason in one line. */
    QuiverException error(IOException e) {
        String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int newline = reason.indexOf('\n');
        return new QuiverException(ErrorCode.SOURCE_ERROR, "JSON file " + file + " line " + lineNumber + ": "
                + (newline < 0 ? reason : reason.substring(0, newline)), e);
    }

    private void closeParser() {
        if (parser != null) {
            try {
                parser.close();
            } catch (IOException ignored) {
                // parsing a string: nothing to release
            }
            parser = null;
        }
    }

    @Override
    public void close() {
        closeParser();
        try {
            lines.close();
        } catch (IOException ignored) {
            // a read-only file: nothing is lost if its close fails
        }
    }
}
