package dev.tablequeue.broker;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaBuilder;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.module.jackson.JacksonModule;
import com.github.victools.jsonschema.module.jackson.JacksonOption;
import java.time.temporal.Temporal;
import java.util.Date;
import org.jooq.DataType;
import org.jooq.Field;

/**
 * JSON Schemas (draft 7, the dialect AsyncAPI 3.0's schema objects extend) of payload types, as Jackson reads
 * and writes them, derived by victools' generator; and of a table's columns, from their SQL types.
 */
final class PayloadSchemas {
    /** The generator: Jackson's view of a type (its property names, required properties), no version keyword. */
    private static final SchemaGenerator GENERATOR = new SchemaGenerator(
            new SchemaGeneratorConfigBuilder(SchemaVersion.DRAFT_7, OptionPreset.PLAIN_JSON)
                    .with(new JacksonModule(JacksonOption.RESPECT_JSONPROPERTY_REQUIRED))
                    .without(Option.SCHEMA_VERSION_INDICATOR)
                    .build());

    private PayloadSchemas() {}

    /** Schemas of several types that share one set of definitions, kept under {@code #/components/schemas}. */
    static Builder builder() {
        return new Builder(GENERATOR.buildMultipleSchemaDefinitions());
    }

    /** Collects the schemas of one document. */
    static final class Builder {
        private final SchemaBuilder schemas;

        private Builder(SchemaBuilder schemas) {
            this.schemas = schemas;
        }

        /** The schema of {@code type}: a reference into the definitions, or the schema itself where it is simple. */
        ObjectNode reference(Class<?> type) {
            return schemas.createSchemaReference(type);
        }

        /** The definitions the references point to; call once, after the last {@link #reference}. */
        ObjectNode definitions() {
            return schemas.collectDefinitions("components/schemas");
        }
    }

    /** The schema of a column's values, as a row-mode handler's JSON would show them. */
    static ObjectNode ofColumn(Field<?> column) {
        ObjectNode schema = JsonNodeFactory.instance.objectNode();
        DataType<?> type = column.getDataType();
        Class<?> java = type.getType();
        if (type.isNumeric() && (java == Long.class || java == Integer.class || java == Short.class
                || java == Byte.class || java == java.math.BigInteger.class)) {
            schema.put("type", "integer");
        } else if (type.isNumeric()) {
            schema.put("type", "number");
        } else if (java == Boolean.class) {
            schema.put("type", "boolean");
        } else if (Temporal.class.isAssignableFrom(java) || Date.class.isAssignableFrom(java)) {
            schema.put("type", "string");
            schema.put("format", "date-time");
        } else if (java == byte[].class) {
            schema.put("type", "string");
            schema.put("format", "binary");
        } else if (type.isJSON()) {
            schema.put("description", "a JSON value");
        } else {
            schema.put("type", "string");
        }
        if (!schema.has("description")) {
            schema.put("description", "column \"" + column.getName() + "\"");
        }
        return schema;
    }
}
