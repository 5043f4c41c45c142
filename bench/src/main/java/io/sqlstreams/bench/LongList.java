package io.sqlstreams.bench;

import java.util.Arrays;
import java.util.List;

/** A growable array of longs, preallocated by its owner so a measurement loop rarely grows it. */
final class LongList {
    private long[] values;
    private int size;

    LongList(int expected) {
        values = new long[Math.max(16, expected)];
    }

    void add(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    int size() {
        return size;
    }

    long[] toArray() {
        return Arrays.copyOf(values, size);
    }

    /** Every value of {@code lists}, in ascending order. */
    static long[] sortedUnion(List<LongList> lists) {
        long[] all = new long[lists.stream().mapToInt(LongList::size).sum()];
        int at = 0;
        for (LongList list : lists) {
            System.arraycopy(list.values, 0, all, at, list.size);
            at += list.size;
        }
        Arrays.sort(all);
        return all;
    }
}
