package dev.quiver.sql.planner;

import java.io.Reader;
import java.io.StringReader;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserImplFactory;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.util.SourceStringReader;

/**
 * Calcite's Babel parser plus what Quiver adds to the parsed tree of every statement (queries,
 * and views when they expand): {@code GROUPS} window frames, which Calcite 1.42 does not parse
 * ({@link GroupsFrames}), and the window fixes and checks of {@link WindowSyntax}.
 */
final class QuiverParserImpl extends SqlBabelParserImpl {
    static final SqlParserImplFactory FACTORY = new SqlParserImplFactory() {
        @Override
        public SqlAbstractParserImpl getParser(Reader reader) {
            String sql = reader instanceof SourceStringReader source ? source.getSourceString() : null;
            if (sql == null) {
                return new QuiverParserImpl(reader, GroupsFrames.Rewrite.NONE);
            }
            GroupsFrames.Rewrite rewrite = GroupsFrames.rewrite(sql);
            QuiverParserImpl parser = new QuiverParserImpl(new StringReader(rewrite.sql()), rewrite);
            parser.setOriginalSql(sql);
            return parser;
        }
    };

    private final GroupsFrames.Rewrite groups;

    private QuiverParserImpl(Reader reader, GroupsFrames.Rewrite groups) {
        super(reader);
        this.groups = groups;
    }

    @Override
    public SqlNode parseSqlStmtEof() throws Exception {
        return WindowSyntax.apply(super.parseSqlStmtEof(), groups);
    }

    @Override
    public SqlNodeList parseSqlStmtList() throws Exception {
        SqlNodeList statements = super.parseSqlStmtList();
        for (SqlNode statement : statements) {
            WindowSyntax.apply(statement, groups);
        }
        return statements;
    }

    @Override
    public SqlNode parseSqlExpressionEof() throws Exception {
        return WindowSyntax.apply(super.parseSqlExpressionEof(), groups);
    }
}
