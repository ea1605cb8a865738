package dev.tablequeue.internal;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Puts the rows of a claim into claim order where its statement returns them in no particular order
 * ({@link dev.tablequeue.dialect.QueueDialect#claimLeaseInOrder()}: SQLite's {@code UPDATE .. RETURNING},
 * which no subquery may read and order). Such a statement returns each row's claim order values after its
 * columns, labelled {@link #LABEL} followed by 0, 1, .. in the order of claim order's columns; the rows are
 * sorted by them as SQLite compares values: NULL first, then numbers by value, then text by its bytes, then
 * blobs by theirs. Values of any other type (a typed driver's timestamps) compare by their natural order.
 */
public final class ClaimOrder {
    /** The label of a claim order value, followed by its place in claim order's columns. */
    public static final String LABEL = "tq_order_";

    private ClaimOrder() {}

    private record Keyed<R>(R row, Object[] keys) {}

    /** Every row of {@code rs}, each read by {@code row}, in claim order. */
    public static <R> List<R> readAll(ResultSet rs, Jdbc.Reader<R> row) throws SQLException {
        int[] columns = orderColumns(rs.getMetaData());
        List<Keyed<R>> read = new ArrayList<>();
        while (rs.next()) {
            Object[] keys = new Object[columns.length];
            for (int i = 0; i < columns.length; i++) {
                keys[i] = rs.getObject(columns[i]);
            }
            read.add(new Keyed<>(row.read(rs), keys));
        }
        read.sort(Comparator.comparing(Keyed::keys, ClaimOrder::compareKeys));
        List<R> sorted = new ArrayList<>(read.size());
        read.forEach(k -> sorted.add(k.row()));
        return sorted;
    }

    /** The indexes of the claim order values among the result's columns, in claim order's column order. */
    private static int[] orderColumns(ResultSetMetaData meta) throws SQLException {
        List<int[]> found = new ArrayList<>();
        for (int c = 1; c <= meta.getColumnCount(); c++) {
            String label = meta.getColumnLabel(c).toLowerCase(Locale.ROOT);
            if (label.startsWith(LABEL)) {
                found.add(new int[] {Integer.parseInt(label.substring(LABEL.length())), c});
            }
        }
        found.sort(Comparator.comparingInt(f -> f[0]));
        return found.stream().mapToInt(f -> f[1]).toArray();
    }

    private static int compareKeys(Object[] a, Object[] b) {
        for (int i = 0; i < a.length; i++) {
            int c = compare(a[i], b[i]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** Two values as SQLite orders them: by storage class (NULL, number, text, blob), then by value. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static int compare(Object a, Object b) {
        int byClass = Integer.compare(storageClass(a), storageClass(b));
        if (byClass != 0) {
            return byClass;
        }
        if (a == null) {
            return 0;
        }
        if (a instanceof Number x && b instanceof Number y) {
            return integral(x) && integral(y) ? Long.compare(x.longValue(), y.longValue())
                    : Double.compare(x.doubleValue(), y.doubleValue());
        }
        if (a instanceof String x && b instanceof String y) {
            // SQLite's BINARY collation compares the UTF-8 bytes
            return Arrays.compareUnsigned(x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8));
        }
        if (a instanceof byte[] x && b instanceof byte[] y) {
            return Arrays.compareUnsigned(x, y);
        }
        return ((Comparable) a).compareTo(b);
    }

    private static int storageClass(Object value) {
        if (value == null) {
            return 0;
        }
        if (value instanceof Number) {
            return 1;
        }
        if (value instanceof String) {
            return 2;
        }
        return value instanceof byte[] ? 3 : 4;
    }

    private static boolean integral(Number n) {
        return n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte;
    }
}
