package dev.tablequeue.broker;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Objects;

/** JSON payloads through a Jackson {@link ObjectMapper}. */
public final class JacksonCodec implements Codec {
    private final ObjectMapper mapper;

    /**
     * A codec on a mapper with the modules found on the class path, which ignores properties the message
     * type does not know: a producer one release ahead may add a field while older consumers still run.
     */
    public JacksonCodec() {
        this(new ObjectMapper().findAndRegisterModules()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES));
    }

    /** A codec on {@code mapper}, configured as the service configures it. */
    public JacksonCodec(ObjectMapper mapper) {
        this.mapper = Objects.requireNonNull(mapper, "mapper");
    }

    @Override
    public <T> T decode(byte[] payload, Class<T> type) throws Exception {
        if (type == byte[].class) {
            return type.cast(payload);
        }
        return mapper.readValue(payload, type);
    }

    @Override
    public byte[] encode(Object message) throws Exception {
        if (message instanceof byte[] bytes) {
            return bytes;
        }
        return mapper.writeValueAsBytes(message);
    }
}
