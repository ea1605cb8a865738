package dev.tablequeue.bench;

import com.github.kagkarlsson.scheduler.Scheduler;

/** The version of db-scheduler on the class path, from its jar's manifest or file name. */
final class DbSchedulerVersion {
    private DbSchedulerVersion() {}

    static String get() {
        String version = Scheduler.class.getPackage().getImplementationVersion();
        if (version != null) {
            return version;
        }
        var source = Scheduler.class.getProtectionDomain().getCodeSource();
        if (source != null) {
            String path = source.getLocation().getPath();
            int slash = path.lastIndexOf('/');
            String file = path.substring(slash + 1);
            if (file.startsWith("db-scheduler-") && file.endsWith(".jar")) {
                return file.substring("db-scheduler-".length(), file.length() - ".jar".length());
            }
        }
        return "(version unknown)";
    }
}
