package dev.quiver.sql.planner;

import java.io.Reader;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserImplFactory;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.util.SourceStringReader;

/**
 * Calcite's Babel parser, with the date functions other dialects' grammars claim rewritten to
 * DuckDB's ({@link DateFunctionSyntax}). Used for queries and views alike, as the planner's
 * parser factory.
 */
final class QuiverParserImpl extends SqlBabelParserImpl {
    static final SqlParserImplFactory FACTORY = QuiverParserImpl::create;

    private QuiverParserImpl(Reader reader) {
        super(reader);
    }

    private static QuiverParserImpl create(Reader reader) {
        QuiverParserImpl parser = new QuiverParserImpl(reader);
        if (reader instanceof SourceStringReader source) {
            parser.setOriginalSql(source.getSourceString());
        }
        return parser;
    }

    @Override
    public SqlNode parseSqlExpressionEof() throws Exception {
        return DateFunctionSyntax.rewrite(super.parseSqlExpressionEof());
    }

    @Override
    public SqlNode parseSqlStmtEof() throws Exception {
        return DateFunctionSyntax.rewrite(super.parseSqlStmtEof());
    }

    @Override
    public SqlNodeList parseSqlStmtList() throws Exception {
        return (SqlNodeList) DateFunctionSyntax.rewrite(super.parseSqlStmtList());
    }
}
