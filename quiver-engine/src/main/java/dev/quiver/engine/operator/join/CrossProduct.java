package dev.quiver.engine.operator.join;

import org.apache.arrow.vector.VectorSchemaRoot;

/** Every (build row, probe row) pair, build row by build row: the candidates of a nested-loop join. */
final class CrossProduct implements PairSource {
    private final int buildRows;
    private int probeRows;
    private int buildRow;
    private int probeRow;

    CrossProduct(int buildRows) {
        this.buildRows = buildRows;
    }

    @Override
    public void start(VectorSchemaRoot probe) {
        probeRows = probe.getRowCount();
        buildRow = 0;
        probeRow = 0;
    }

    @Override
    public boolean hasMore() {
        return probeRows > 0 && buildRow < buildRows;
    }

    @Override
    public int fill(int[] buildOut, int[] probeOut, int max) {
        int count = 0;
        while (count < max && buildRow < buildRows && probeRows > 0) {
            int run = Math.min(probeRows - probeRow, max - count);
            for (int i = 0; i < run; i++) {
                buildOut[count] = buildRow;
                probeOut[count] = probeRow + i;
                count++;
            }
            probeRow += run;
            if (probeRow == probeRows) {
                probeRow = 0;
                buildRow++;
            }
        }
        return count;
    }

    @Override
    public void finishBatch() {
        probeRows = 0;
    }

    @Override
    public void close() {
        probeRows = 0;
    }
}
