package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.FileFormat;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** How {@link StatementParser} reads CREATE EXTERNAL TABLE and DROP TABLE. */
class ExternalTableStatementTest {
    @Test
    void readsEveryPart() {
        Statement statement = StatementParser.parse("""
                create or replace external table if not exists "My Table" (
                    id bigint not null,
                    "Price" decimal(15, 2),
                    d DATE, s varchar(25)
                ) stored as csv location '/data/it''s here.csv';
                """);
        assertThat(statement).isEqualTo(new Statement.CreateExternalTable("My Table", Optional.of(new Schema(List.of(
                QuiverTypes.field("id", QuiverTypes.INT64, false),
                QuiverTypes.field("Price", QuiverTypes.decimal(15, 2), true),
                QuiverTypes.field("d", QuiverTypes.DATE32, true),
                QuiverTypes.field("s", QuiverTypes.UTF8, true)))),
                Optional.of(FileFormat.CSV), "/data/it's here.csv", true, true));
    }

    @Test
    void columnsAndFormatAreOptional() {
        assertThat(StatementParser.parse("CREATE EXTERNAL TABLE t LOCATION 'x.parquet'"))
                .isEqualTo(new Statement.CreateExternalTable("t", Optional.empty(), Optional.empty(), "x.parquet", false, false));
        assertThat(StatementParser.parse("CREATE EXTERNAL TABLE t STORED AS feather LOCATION 'd'"))
                .isEqualTo(new Statement.CreateExternalTable("t", Optional.empty(), Optional.of(FileFormat.ARROW), "d", false, false));
        assertThat(StatementParser.parse("drop table if exists T")).isEqualTo(new Statement.DropTable("T", true));
        assertThat(StatementParser.parse("DROP TABLE t")).isEqualTo(new Statement.DropTable("t", false));
    }

    @Test
    void badDefinitionsAreUserErrors() {
        assertThatThrownBy(() -> StatementParser.parse("CREATE EXTERNAL TABLE t (a) LOCATION 'x.csv'"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SYNTAX_ERROR));
        assertThatThrownBy(() -> StatementParser.parse("CREATE EXTERNAL TABLE t (a int, A int) LOCATION 'x.csv'"))
                .isInstanceOf(QuiverException.class).hasMessageContaining("declared twice");
        assertThatThrownBy(() -> StatementParser.parse("CREATE EXTERNAL TABLE t (a decimal(40,2)) LOCATION 'x.csv'"))
                .isInstanceOf(QuiverException.class).hasMessageContaining("precision");
        assertThatThrownBy(() -> StatementParser.parse("CREATE EXTERNAL TABLE t LOCATION ''"))
                .isInstanceOf(QuiverException.class).hasMessageContaining("LOCATION is empty");
        // without LOCATION it is no external table statement: CREATE is not supported otherwise
        assertThatThrownBy(() -> StatementParser.parse("CREATE EXTERNAL TABLE t STORED AS CSV"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED));
    }
}
