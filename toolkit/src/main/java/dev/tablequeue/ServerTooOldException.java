package dev.tablequeue;

/**
 * A database server older than the oldest one tablequeue serves: thrown when a subscription opens and reads
 * the server's version. Carries the server's name, the version it reported and the floor it fell short of.
 */
public class ServerTooOldException extends ConfigurationException {
    private static final long serialVersionUID = 1L;

    private final String server;
    private final String version;
    private final String floor;

    /**
     * @param server the server's name, e.g. "MariaDB"
     * @param version the version the server reported
     * @param floor the oldest version served
     * @param needs what the floor brings that tablequeue needs, for the message
     */
    public ServerTooOldException(String server, String version, String floor, String needs) {
        super(server + " " + version + " is older than " + server + " " + floor
                + ", the oldest tablequeue serves (" + needs + ")");
        this.server = server;
        this.version = version;
        this.floor = floor;
    }

    /** The server's name, e.g. "MySQL" or "MariaDB". */
    public String server() {
        return server;
    }

    /** The version the server reported. */
    public String version() {
        return version;
    }

    /** The oldest version tablequeue serves on this server. */
    public String floor() {
        return floor;
    }
}
