package dev.tablequeue.broker;

/** What a {@link Claimer} hands its rows to: the subscription's side of a claim in progress. */
interface Dispatch {

    /**
     * Takes a budget permit for a connection the claim holds, waiting up to the poll interval, and no longer
     * once the subscription stops; false where none came.
     */
    boolean permit() throws InterruptedException;

    /** Counts {@code d} in the claim in progress and puts it into work; the claim thread's alone. */
    void dispatch(InWork d);

    /** Counts {@code n} rows that further connections of the claim put into work themselves. */
    void counted(int n);

    /** Puts {@code d} into work without counting it in the claim; any thread. */
    void start(InWork d);

    /** Takes one free worker without waiting; false where none is free. */
    boolean tryTakeOne();

    /** Gives back a row that was taken but does not go into work. */
    void turnAway(InWork d);
}
