package dev.tablequeue.bench;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** What the report says about the machine and the JVM the figures came from. */
final class Machine {
    private Machine() {}

    static Map<String, String> describe(double loadBefore, double loadAfter) {
        Map<String, String> facts = new LinkedHashMap<>();
        var os = ManagementFactory.getOperatingSystemMXBean();
        facts.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        facts.put("cores", String.valueOf(Runtime.getRuntime().availableProcessors()));
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            facts.put("memory", String.format(Locale.ROOT, "%.1f GiB", sun.getTotalMemorySize() / (double) (1L << 30)));
        }
        facts.put("load average (1 min) at start / end", String.format(Locale.ROOT, "%.2f / %.2f", loadBefore,
                loadAfter));
        facts.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        facts.put("jvm arguments", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        facts.put("max heap", (Runtime.getRuntime().maxMemory() >> 20) + " MiB");
        facts.put("gc", String.join(", ", ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(java.lang.management.GarbageCollectorMXBean::getName).toList()));
        return facts;
    }
}
