package dev.quiver.engine.source.tpch;

import static dev.quiver.engine.source.tpch.TpchColumnDef.bigint;
import static dev.quiver.engine.source.tpch.TpchColumnDef.date;
import static dev.quiver.engine.source.tpch.TpchColumnDef.integer;
import static dev.quiver.engine.source.tpch.TpchColumnDef.money;
import static dev.quiver.engine.source.tpch.TpchColumnDef.varchar;

import dev.quiver.engine.stats.Estimate;
import io.trino.tpch.Customer;
import io.trino.tpch.GenerateUtils;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemColumn;
import io.trino.tpch.Nation;
import io.trino.tpch.Order;
import io.trino.tpch.OrderColumn;
import io.trino.tpch.Part;
import io.trino.tpch.PartSupplier;
import io.trino.tpch.Region;
import io.trino.tpch.Supplier;
import io.trino.tpch.TpchTable;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleFunction;

/**
 * The eight TPC-H tables with the standard schema: keys BIGINT, money and quantities
 * DECIMAL(15,2), counts INTEGER, dates DATE, text VARCHAR; none nullable.
 *
 * <p>Distinct counts are exact for each table's own key, and estimates from the TPC-H
 * specification (clause 4.2.3) for foreign keys and enumerated columns.
 */
final class TpchTables {
    static final int CUSTOMER_BASE = 150_000;
    static final int ORDERS_BASE = 1_500_000;
    static final int PART_BASE = 200_000;
    static final int SUPPLIER_BASE = 10_000;

    /** lineitem's row count depends on random line counts per order; these are the counts dbgen produces. */
    private static final Map<Double, Long> LINEITEM_ROWS = Map.of(
            0.01, 60_175L,
            0.1, 600_572L,
            1.0, 6_001_215L,
            10.0, 59_986_052L,
            100.0, 600_037_902L);

    static final TpchTableDef<Customer> CUSTOMER = new TpchTableDef<>("customer", TpchTable.CUSTOMER, List.of(
            bigint("c_custkey", Customer::getCustomerKey).withDistinct(unique(CUSTOMER_BASE)),
            varchar("c_name", Customer::getName, 18).withDistinct(unique(CUSTOMER_BASE)),
            varchar("c_address", Customer::getAddress, 25).withDistinct(about(CUSTOMER_BASE)),
            bigint("c_nationkey", Customer::getNationKey).withDistinct(fixed(25)),
            varchar("c_phone", Customer::getPhone, 15).withDistinct(about(CUSTOMER_BASE)),
            money("c_acctbal", Customer::getAccountBalanceInCents),
            varchar("c_mktsegment", Customer::getMarketSegment, 9).withDistinct(fixed(5)),
            varchar("c_comment", Customer::getComment, 73)),
            scaled(CUSTOMER_BASE));

    static final TpchTableDef<Order> ORDERS = new TpchTableDef<>("orders", TpchTable.ORDERS, List.of(
            bigint("o_orderkey", Order::getOrderKey).withDistinct(unique(ORDERS_BASE)),
            // a third of the customers (custkey divisible by 3) place no orders
            bigint("o_custkey", Order::getCustomerKey).withDistinct(about(CUSTOMER_BASE * 2 / 3)),
            varchar("o_orderstatus", (Order order) -> String.valueOf(order.getOrderStatus()), 1).withDistinct(fixed(3)),
            money("o_totalprice", Order::getTotalPriceInCents).withDistinct(about(ORDERS_BASE)),
            date("o_orderdate", (Order order) -> OrderColumn.ORDER_DATE.getDate(order)).withDistinct(fixed(2406)),
            varchar("o_orderpriority", Order::getOrderPriority, 8).withDistinct(fixed(5)),
            varchar("o_clerk", Order::getClerk, 15).withDistinct(about(1_000)),
            integer("o_shippriority", Order::getShipPriority).withDistinct(fixed(1)),
            varchar("o_comment", Order::getComment, 49)),
            scaled(ORDERS_BASE));

    static final TpchTableDef<LineItem> LINEITEM = new TpchTableDef<>("lineitem", TpchTable.LINE_ITEM, List.of(
            bigint("l_orderkey", LineItem::getOrderKey).withDistinct(about(ORDERS_BASE)),
            bigint("l_partkey", LineItem::getPartKey).withDistinct(about(PART_BASE)),
            bigint("l_suppkey", LineItem::getSupplierKey).withDistinct(about(SUPPLIER_BASE)),
            integer("l_linenumber", LineItem::getLineNumber).withDistinct(fixed(7)),
            // the generator's quantity is a whole number of units
            money("l_quantity", (LineItem item) -> item.getQuantity() * 100).withDistinct(fixed(50)),
            money("l_extendedprice", LineItem::getExtendedPriceInCents),
            money("l_discount", LineItem::getDiscountPercent).withDistinct(fixed(11)),
            money("l_tax", LineItem::getTaxPercent).withDistinct(fixed(9)),
            varchar("l_returnflag", LineItem::getReturnFlag, 1).withDistinct(fixed(3)),
            varchar("l_linestatus", LineItem::getStatus, 1).withDistinct(fixed(2)),
            date("l_shipdate", (LineItem item) -> LineItemColumn.SHIP_DATE.getDate(item)).withDistinct(fixed(2526)),
            date("l_commitdate", (LineItem item) -> LineItemColumn.COMMIT_DATE.getDate(item)).withDistinct(fixed(2466)),
            date("l_receiptdate", (LineItem item) -> LineItemColumn.RECEIPT_DATE.getDate(item)).withDistinct(fixed(2554)),
            varchar("l_shipinstruct", LineItem::getShipInstructions, 12).withDistinct(fixed(4)),
            varchar("l_shipmode", LineItem::getShipMode, 4).withDistinct(fixed(7)),
            varchar("l_comment", LineItem::getComment, 27)),
            TpchTables::lineitemRows);

    static final TpchTableDef<Part> PART = new TpchTableDef<>("part", TpchTable.PART, List.of(
            bigint("p_partkey", Part::getPartKey).withDistinct(unique(PART_BASE)),
            varchar("p_name", Part::getName, 33).withDistinct(about(PART_BASE)),
            varchar("p_mfgr", Part::getManufacturer, 14).withDistinct(fixed(5)),
            varchar("p_brand", Part::getBrand, 8).withDistinct(fixed(25)),
            varchar("p_type", Part::getType, 21).withDistinct(fixed(150)),
            integer("p_size", Part::getSize).withDistinct(fixed(50)),
            varchar("p_container", Part::getContainer, 8).withDistinct(fixed(40)),
            money("p_retailprice", Part::getRetailPriceInCents),
            varchar("p_comment", Part::getComment, 14)),
            scaled(PART_BASE));

    static final TpchTableDef<PartSupplier> PARTSUPP = new TpchTableDef<>("partsupp", TpchTable.PART_SUPPLIER, List.of(
            bigint("ps_partkey", PartSupplier::getPartKey).withDistinct(about(PART_BASE)),
            bigint("ps_suppkey", PartSupplier::getSupplierKey).withDistinct(about(SUPPLIER_BASE)),
            integer("ps_availqty", PartSupplier::getAvailableQuantity).withDistinct(fixed(9_999)),
            money("ps_supplycost", PartSupplier::getSupplyCostInCents).withDistinct(fixed(99_901)),
            varchar("ps_comment", PartSupplier::getComment, 124)),
            // four suppliers per part, generated with their part
            (sf, part, partCount) -> Estimate.exact(4 * GenerateUtils.calculateRowCount(PART_BASE, sf, part, partCount)));

    static final TpchTableDef<Supplier> SUPPLIER = new TpchTableDef<>("supplier", TpchTable.SUPPLIER, List.of(
            bigint("s_suppkey", Supplier::getSupplierKey).withDistinct(unique(SUPPLIER_BASE)),
            varchar("s_name", Supplier::getName, 18).withDistinct(unique(SUPPLIER_BASE)),
            varchar("s_address", Supplier::getAddress, 25).withDistinct(about(SUPPLIER_BASE)),
            bigint("s_nationkey", Supplier::getNationKey).withDistinct(fixed(25)),
            varchar("s_phone", Supplier::getPhone, 15).withDistinct(about(SUPPLIER_BASE)),
            money("s_acctbal", Supplier::getAccountBalanceInCents),
            varchar("s_comment", Supplier::getComment, 63)),
            scaled(SUPPLIER_BASE));

    static final TpchTableDef<Nation> NATION = new TpchTableDef<>("nation", TpchTable.NATION, List.of(
            bigint("n_nationkey", Nation::getNationKey).withDistinct(exactly(25)),
            varchar("n_name", Nation::getName, 7).withDistinct(exactly(25)),
            bigint("n_regionkey", Nation::getRegionKey).withDistinct(exactly(5)),
            varchar("n_comment", Nation::getComment, 75).withDistinct(exactly(25))),
            fixedRows(25));

    static final TpchTableDef<Region> REGION = new TpchTableDef<>("region", TpchTable.REGION, List.of(
            bigint("r_regionkey", Region::getRegionKey).withDistinct(exactly(5)),
            varchar("r_name", Region::getName, 7).withDistinct(exactly(5)),
            varchar("r_comment", Region::getComment, 66).withDistinct(exactly(5))),
            fixedRows(5));

    static final List<TpchTableDef<?>> ALL = List.of(CUSTOMER, LINEITEM, NATION, ORDERS, PART, PARTSUPP, REGION, SUPPLIER);

    private TpchTables() {}

    private static TpchTableDef.RowCounter scaled(int base) {
        return (sf, part, partCount) -> Estimate.exact(GenerateUtils.calculateRowCount(base, sf, part, partCount));
    }

    private static TpchTableDef.RowCounter fixedRows(long rows) {
        return (sf, part, partCount) -> Estimate.exact(part == 1 ? rows : 0);
    }

    /** Exact for the whole table at the scale factors dbgen documents; otherwise about four lines per order. */
    private static Estimate lineitemRows(double sf, int part, int partCount) {
        long orders = GenerateUtils.calculateRowCount(ORDERS_BASE, sf, part, partCount);
        Long known = LINEITEM_ROWS.get(sf);
        if (known == null) {
            return Estimate.inexact(4 * orders);
        }
        if (partCount == 1) {
            return Estimate.exact(known);
        }
        long allOrders = GenerateUtils.calculateRowCount(ORDERS_BASE, sf, 1, 1);
        return Estimate.inexact(Math.round((double) known * orders / allOrders));
    }

    /** As many distinct values as the scaled table has rows (its own key). */
    private static DoubleFunction<Estimate> unique(int base) {
        return sf -> Estimate.exact(GenerateUtils.calculateRowCount(base, sf, 1, 1));
    }

    /** About as many distinct values as a scaled table of {@code base} rows at SF 1. */
    private static DoubleFunction<Estimate> about(int base) {
        return sf -> Estimate.inexact(Math.max(1, (long) (base * sf)));
    }

    /** A fixed domain of {@code n} values, all present at any realistic scale factor. */
    private static DoubleFunction<Estimate> fixed(long n) {
        return sf -> Estimate.inexact(n);
    }

    private static DoubleFunction<Estimate> exactly(long n) {
        return sf -> Estimate.exact(n);
    }
}
