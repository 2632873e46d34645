package dev.quiver.engine.source.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.QuiverException;
import org.junit.jupiter.api.Test;

class TpchQueriesTest {
    @Test
    void q11FractionIsScaledByTheScaleFactor() {
        String shipped = TpchQueries.query(11);
        assertThat(shipped).contains("* 0.0001\n");
        assertThat(TpchQueries.query(11, 1)).isEqualTo(shipped);
        assertThat(TpchQueries.query(11, 10)).isEqualTo(shipped.replace("* 0.0001\n", "* 0.00001\n"));
        assertThat(TpchQueries.query(11, 100)).contains("* 0.000001\n");
        assertThat(TpchQueries.query(11, 0.01)).contains("* 0.01\n");
        assertThat(TpchQueries.query(11, 3)).contains("* 0.00003333333333333333\n");
    }

    @Test
    void otherQueriesDoNotDependOnTheScaleFactor() {
        for (int query : TpchQueries.NUMBERS) {
            if (query != 11) {
                assertThat(TpchQueries.query(query, 10)).as("q%d", query).isEqualTo(TpchQueries.query(query));
            }
        }
        assertThatThrownBy(() -> TpchQueries.query(11, 0)).isInstanceOf(QuiverException.class).hasMessageContaining("scale factor");
    }
}
