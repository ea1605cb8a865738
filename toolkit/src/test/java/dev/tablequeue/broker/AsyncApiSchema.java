package dev.tablequeue.broker;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The official JSON Schema of an AsyncAPI 3.0.0 document ({@code asyncapi/asyncapi-3.0.0-without-id.json}, from
 * {@code @asyncapi/specs}), for the tests of every module that renders one: {@code broker.asyncApi()}, the
 * command line's {@code asyncapi} and the Spring endpoint. It ships in the toolkit's test jar, so the validator
 * stays a test dependency of each module that uses it.
 */
public final class AsyncApiSchema {
    private static final String PATH = "/asyncapi/asyncapi-3.0.0-without-id.json";
    private static final Schema SCHEMA = load();

    private AsyncApiSchema() {}

    /** What {@code json} breaks of the AsyncAPI 3.0.0 schema, one line each: empty for a valid document. */
    public static List<String> errors(String json) {
        return SCHEMA.validate(json, InputFormat.JSON).stream().map(Error::toString).toList();
    }

    private static Schema load() {
        try (InputStream in = AsyncApiSchema.class.getResourceAsStream(PATH)) {
            if (in == null) {
                throw new IllegalStateException(PATH + " is missing from the toolkit's test jar");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7).getSchema(text, InputFormat.JSON);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + PATH, e);
        }
    }
}
