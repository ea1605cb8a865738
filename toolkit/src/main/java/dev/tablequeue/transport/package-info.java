/**
 * The transport SPI: the hooks every transport (the table broker, an in-memory broker, a RabbitMQ adapter)
 * runs around a send ({@link dev.tablequeue.transport.PublishMiddleware}) and around a handler call
 * ({@link dev.tablequeue.transport.HandlerMiddleware}). The outbox is one pair of such middlewares; tracing
 * (a header carrying the trace context, a span around the handler) is another.
 */
package dev.tablequeue.transport;
