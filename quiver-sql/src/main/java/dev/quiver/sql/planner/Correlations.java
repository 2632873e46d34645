package dev.quiver.sql.planner;

import java.util.HashSet;
import java.util.Set;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;

/** Which correlation variables an expression or plan uses, looking inside sub-queries. */
final class Correlations {
    private Correlations() {}

    /** The variables {@code node} uses, including those used (and set) inside its sub-queries. */
    static Set<CorrelationId> used(RexNode node) {
        Collector collector = new Collector();
        node.accept(collector);
        return collector.used;
    }

    /** The variables a plan uses that none of its own nodes sets: those that tie it to an outer query. */
    static Set<CorrelationId> free(RelNode rel) {
        Collector collector = new Collector();
        rel.accept(collector.relShuttle());
        Set<CorrelationId> free = new HashSet<>(collector.used);
        free.removeAll(collector.defined);
        return free;
    }

    static boolean containsSubQuery(RexNode node) {
        boolean[] found = {false};
        node.accept(new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                found[0] = true;
                return subQuery;
            }
        });
        return found[0];
    }

    private static final class Collector extends RexShuttle {
        private final Set<CorrelationId> used = new HashSet<>();
        private final Set<CorrelationId> defined = new HashSet<>();

        @Override
        public RexNode visitCorrelVariable(RexCorrelVariable variable) {
            used.add(variable.id);
            return variable;
        }

        @Override
        public RexNode visitSubQuery(RexSubQuery subQuery) {
            super.visitSubQuery(subQuery);
            subQuery.rel.accept(relShuttle());
            return subQuery;
        }

        RelHomogeneousShuttle relShuttle() {
            Collector rex = this;
            return new RelHomogeneousShuttle() {
                @Override
                public RelNode visit(RelNode other) {
                    defined.addAll(other.getVariablesSet());
                    other.accept(rex);
                    return super.visit(other);
                }
            };
        }
    }
}
