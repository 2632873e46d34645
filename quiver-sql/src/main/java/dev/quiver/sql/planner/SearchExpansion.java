package dev.quiver.sql.planner;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;

/**
 * Expands every {@code SEARCH(x, Sarg[..])} into plain comparisons: points become an OR of
 * {@code =}, ranges {@code >=}/{@code <} conjunctions, complements {@code <>} conjunctions. Must
 * run last: conversion and every simplification create Sargs again.
 */
final class SearchExpansion extends RelHomogeneousShuttle {
    private final RexShuttle expander;

    private SearchExpansion(RexShuttle expander) {
        this.expander = expander;
    }

    static RelNode apply(RelNode rel) {
        return rel.accept(new SearchExpansion(RexUtil.searchShuttle(rel.getCluster().getRexBuilder(), null, -1)));
    }

    @Override
    public RelNode visit(RelNode other) {
        return super.visit(other).accept(expander);
    }
}
