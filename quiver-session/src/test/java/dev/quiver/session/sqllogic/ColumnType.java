package dev.quiver.session.sqllogic;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.Locale;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The letter a {@code query} record gives each result column, as in sqllogictest. The letters are
 * written by the update mode from DuckDB's result types; the runner checks Quiver's types against
 * them by family (an integer column must be an integer column, a decimal may be a double, and so on;
 * see {@link #accepts}).
 */
enum ColumnType {
    INTEGER('I'),
    /** DOUBLE and REAL. */
    FLOAT('R'),
    DECIMAL('N'),
    TEXT('T'),
    BOOLEAN('B'),
    DATE('D'),
    TIMESTAMP('P'),
    /** Anything else (intervals, lists...): rendered as text, never checked. */
    OTHER('?');

    private final char letter;

    ColumnType(char letter) {
        this.letter = letter;
    }

    char letter() {
        return letter;
    }

    static ColumnType ofLetter(char letter, String where) {
        for (ColumnType type : values()) {
            if (type.letter == letter) {
                return type;
            }
        }
        throw new QuiverException(ErrorCode.INVALID_ARGUMENT, where + ": unknown column type letter '" + letter + "' (use I R N T B D P or ?)");
    }

    /** The letter of a Quiver result column. */
    static ColumnType ofArrow(ArrowType type) {
        if (type instanceof ArrowType.Int) {
            return INTEGER;
        }
        if (type instanceof ArrowType.FloatingPoint) {
            return FLOAT;
        }
        if (type instanceof ArrowType.Decimal) {
            return DECIMAL;
        }
        if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8) {
            return TEXT;
        }
        if (type instanceof ArrowType.Bool) {
            return BOOLEAN;
        }
        if (type instanceof ArrowType.Date) {
            return DATE;
        }
        if (type instanceof ArrowType.Timestamp) {
            return TIMESTAMP;
        }
        return OTHER;
    }

    /** The letter of a DuckDB result column, from its JDBC type name ({@code DECIMAL(38,2)}, {@code HUGEINT}...). */
    static ColumnType ofDuckDb(String typeName) {
        String name = typeName.toUpperCase(Locale.ROOT);
        if (name.startsWith("DECIMAL") || name.startsWith("NUMERIC")) {
            return DECIMAL;
        }
        return switch (name) {
            case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT" -> INTEGER;
            case "FLOAT", "REAL", "DOUBLE" -> FLOAT;
            case "VARCHAR", "CHAR", "TEXT", "STRING" -> TEXT;
            case "BOOLEAN" -> BOOLEAN;
            case "DATE" -> DATE;
            case "TIMESTAMP", "TIMESTAMP_US", "DATETIME" -> TIMESTAMP;
            default -> OTHER;
        };
    }

    /**
     * Whether a Quiver column of type {@code actual} may stand where DuckDB gave this type. Exact and
     * approximate numbers stand for each other (DuckDB divides decimals into doubles; Quiver keeps
     * decimals), but an integer result must be an integer, and text, booleans, dates and timestamps
     * must be what they are.
     */
    boolean accepts(ColumnType actual) {
        if (this == OTHER || this == actual) {
            return true;
        }
        return (this == DECIMAL || this == FLOAT) && (actual == DECIMAL || actual == FLOAT);
    }
}
