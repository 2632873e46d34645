package dev.quiver.sql.planner;

import java.io.Reader;
import java.io.StringReader;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserImplFactory;
import org.apache.calcite.sql.parser.babel.SimpleCharStream;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImplConstants;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImplTokenManager;
import org.apache.calcite.sql.parser.babel.Token;
import org.apache.calcite.util.SourceStringReader;

/**
 * Calcite's Babel parser plus what Quiver adds to the parsed tree of every statement (queries,
 * and views when they expand), used as the planner's parser factory:
 *
 * <ul>
 *   <li>{@code GROUPS} window frames, which Calcite 1.42 does not parse ({@link GroupsFrames}), and
 *       the window fixes and checks of {@link WindowSyntax};
 *   <li>DuckDB's date functions read as DuckDB does. Calcite's grammar gives {@code DATE_DIFF},
 *       {@code DATEDIFF}, {@code DATE_PART} and {@code DATEPART} other dialects' syntax (BigQuery's
 *       {@code DATE_DIFF(a, b, DAY)}, SQL Server's {@code DATEDIFF(day, a, b)}), under which DuckDB's
 *       {@code date_diff('day', a, b + 1)} does not parse. Here those words are plain identifiers,
 *       so each is an ordinary call of the registry's {@code date_diff} or {@code date_part}.
 *   <li>positions of {@code x::type} casts at their text ({@link InfixCastPositions});
 *   <li>DuckDB's file references as tables ({@code FROM 'data.parquet'}, {@code read_csv(...)}) and
 *       FROM-first queries ({@link FileReferenceTokens}).
 * </ul>
 */
final class QuiverParserImpl extends SqlBabelParserImpl {
    static final SqlParserImplFactory FACTORY = QuiverParserImpl::create;

    private final GroupsFrames.Rewrite groups;

    private QuiverParserImpl(Reader reader, GroupsFrames.Rewrite groups) {
        super(reader);
        this.groups = groups;
    }

    private static QuiverParserImpl create(Reader reader) {
        String sql = reader instanceof SourceStringReader source ? source.getSourceString() : null;
        GroupsFrames.Rewrite rewrite = sql == null ? GroupsFrames.Rewrite.NONE : GroupsFrames.rewrite(sql);
        Reader input = sql == null ? reader : new StringReader(rewrite.sql());
        QuiverParserImpl parser = new QuiverParserImpl(input, rewrite);
        // the parser's own character stream, fed to DuckDB's tokens: ReInit hands it to the token manager
        parser.token_source = new DuckDbTokens();
        parser.ReInit(input);
        if (sql != null) {
            parser.setOriginalSql(sql);
        }
        return parser;
    }

    @Override
    public SqlNode parseSqlStmtEof() throws Exception {
        return InfixCastPositions.apply(WindowSyntax.apply(super.parseSqlStmtEof(), groups));
    }

    @Override
    public SqlNodeList parseSqlStmtList() throws Exception {
        SqlNodeList statements = super.parseSqlStmtList();
        for (SqlNode statement : statements) {
            InfixCastPositions.apply(WindowSyntax.apply(statement, groups));
        }
        return statements;
    }

    @Override
    public SqlNode parseSqlExpressionEof() throws Exception {
        return InfixCastPositions.apply(WindowSyntax.apply(super.parseSqlExpressionEof(), groups));
    }

    /**
     * Babel's tokens, with the date function keywords of other dialects as identifiers and DuckDB's
     * file references as table names ({@link FileReferenceTokens}).
     */
    private static final class DuckDbTokens extends SqlBabelParserImplTokenManager {
        private final FileReferenceTokens files = new FileReferenceTokens(this::babelToken);

        DuckDbTokens() {
            super(new SimpleCharStream(new StringReader("")));
        }

        private Token babelToken() {
            return super.getNextToken();
        }

        @Override
        public Token getNextToken() {
            Token token = files.next();
            switch (token.kind) {
                case SqlBabelParserImplConstants.DATE_DIFF, SqlBabelParserImplConstants.DATEDIFF, SqlBabelParserImplConstants.DATE_PART,
                        SqlBabelParserImplConstants.DATEPART -> token.kind = SqlBabelParserImplConstants.IDENTIFIER;
                default -> { }
            }
            return token;
        }
    }
}
