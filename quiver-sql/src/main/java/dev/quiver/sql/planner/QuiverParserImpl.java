package dev.quiver.sql.planner;

import java.io.Reader;
import java.io.StringReader;
import org.apache.calcite.sql.parser.SqlParserImplFactory;
import org.apache.calcite.sql.parser.babel.SimpleCharStream;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImplConstants;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImplTokenManager;
import org.apache.calcite.sql.parser.babel.Token;
import org.apache.calcite.util.SourceStringReader;

/**
 * Calcite's Babel parser reading DuckDB's date functions as DuckDB does. Calcite's grammar gives
 * {@code DATE_DIFF}, {@code DATEDIFF}, {@code DATE_PART} and {@code DATEPART} other dialects'
 * syntax (BigQuery's {@code DATE_DIFF(a, b, DAY)}, SQL Server's {@code DATEDIFF(day, a, b)}),
 * under which DuckDB's {@code date_diff('day', a, b + 1)} does not parse. Here those words are
 * plain identifiers, so each is an ordinary function call of the registry's {@code date_diff} or
 * {@code date_part}, with the part as a string. Used for queries and views alike, as the
 * planner's parser factory.
 */
final class QuiverParserImpl extends SqlBabelParserImpl {
    static final SqlParserImplFactory FACTORY = QuiverParserImpl::create;

    private QuiverParserImpl(Reader reader) {
        super(reader);
    }

    private static QuiverParserImpl create(Reader reader) {
        QuiverParserImpl parser = new QuiverParserImpl(reader);
        // the parser's own character stream, fed to DuckDB's tokens: ReInit hands it to the token manager
        parser.token_source = new DuckDbTokens();
        parser.ReInit(reader);
        if (reader instanceof SourceStringReader source) {
            parser.setOriginalSql(source.getSourceString());
        }
        return parser;
    }

    /** Babel's tokens, with the date function keywords of other dialects as identifiers. */
    private static final class DuckDbTokens extends SqlBabelParserImplTokenManager {
        DuckDbTokens() {
            super(new SimpleCharStream(new StringReader("")));
        }

        @Override
        public Token getNextToken() {
            Token token = super.getNextToken();
            switch (token.kind) {
                case SqlBabelParserImplConstants.DATE_DIFF, SqlBabelParserImplConstants.DATEDIFF, SqlBabelParserImplConstants.DATE_PART,
                        SqlBabelParserImplConstants.DATEPART -> token.kind = SqlBabelParserImplConstants.IDENTIFIER;
                default -> { }
            }
            return token;
        }
    }
}
