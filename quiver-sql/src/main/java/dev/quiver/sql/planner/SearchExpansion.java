package dev.quiver.sql.planner;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;

/**
 * Expands every {@code SEARCH(x, Sarg[..])} into plain comparisons: points become an OR of
 * {@code =}, ranges {@code >=}/{@code <} conjunctions, complements {@code <>} conjunctions. Must
 * run last: conversion and every simplification create Sargs again. The expanded conditions are
 * flattened: a range inside a conjunction would otherwise leave {@code AND(a, AND(b, c))}, which
 * a Filter rejects.
 */
final class SearchExpansion extends RelHomogeneousShuttle {
    private final RexShuttle expander;

    private SearchExpansion(RexShuttle expander) {
        this.expander = expander;
    }

    static RelNode apply(RelNode rel) {
        RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
        RexShuttle search = RexUtil.searchShuttle(rexBuilder, null, -1);
        return rel.accept(new SearchExpansion(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                return RexUtil.flatten(rexBuilder, call.accept(search));
            }
        }));
    }

    @Override
    public RelNode visit(RelNode other) {
        return super.visit(other).accept(expander);
    }
}
