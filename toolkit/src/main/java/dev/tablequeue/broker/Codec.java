package dev.tablequeue.broker;

/** Turns payloads into messages and back. The broker's default is {@link JacksonCodec}. */
public interface Codec {

    /** Decodes {@code payload} into a {@code type}. */
    <T> T decode(byte[] payload, Class<T> type) throws Exception;

    /** Encodes {@code message} into payload bytes. */
    byte[] encode(Object message) throws Exception;
}
