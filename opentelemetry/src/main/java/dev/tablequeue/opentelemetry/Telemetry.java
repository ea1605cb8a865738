package dev.tablequeue.opentelemetry;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The OpenTelemetry the middlewares trace with: one given, or the global one as it stands when a message
 * passes. The global one is read with {@link GlobalOpenTelemetry#getOrNoop()}, which never sets it, so a
 * service that installs its SDK after building its broker is traced from then on, and nothing here stops it
 * from installing one.
 */
final class Telemetry {
    static final String SCOPE = "dev.tablequeue.opentelemetry";
    private static final String VERSION = version();

    private final OpenTelemetry fixed;
    private volatile Resolved last;

    /** What one OpenTelemetry gives the middlewares: its tracer and its propagator. */
    record Resolved(OpenTelemetry openTelemetry, Tracer tracer, TextMapPropagator propagator, boolean off) {
        static Resolved of(OpenTelemetry otel) {
            TextMapPropagator propagator = otel.getPropagators().getTextMapPropagator();
            // the API alone (no SDK, or an SDK not installed): the middlewares step aside without allocating
            boolean off = otel.getTracerProvider() == TracerProvider.noop() && propagator == TextMapPropagator.noop();
            return new Resolved(otel, otel.getTracer(SCOPE, VERSION), propagator, off);
        }
    }

    private Telemetry(OpenTelemetry fixed) {
        this.fixed = fixed;
        this.last = fixed == null ? null : Resolved.of(fixed);
    }

    static Telemetry of(OpenTelemetry openTelemetry) {
        return new Telemetry(openTelemetry);
    }

    static Telemetry global() {
        return new Telemetry(null);
    }

    /** The tracer and propagator to use now. */
    Resolved current() {
        if (fixed != null) {
            return last;
        }
        OpenTelemetry otel = GlobalOpenTelemetry.getOrNoop();
        Resolved r = last;
        if (r == null || r.openTelemetry() != otel) {
            r = Resolved.of(otel);
            last = r;
        }
        return r;
    }

    private static String version() {
        try (InputStream in = Telemetry.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return null;
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the version of " + SCOPE, e);
        }
    }
}
