package dev.tablequeue.cli;

import picocli.CommandLine;

/** The version the jar's manifest names, as {@code --version} prints it. */
final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = TableQueueCli.class.getPackage().getImplementationVersion();
        return new String[] {"tablequeue " + (version == null ? "(development build)" : version)};
    }
}
