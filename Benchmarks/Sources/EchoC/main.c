/* The C contender of the echo benchmark: a libuv echo server written the
 * way a careful C programmer would. Each read is written back at once with
 * uv_try_write; whatever the socket does not take is copied into a
 * uv_write request. While 1 MiB or more is queued on a connection, reading
 * pauses until the queue drains (the same back-pressure as Compose's
 * TCPConnection). Reads go into one static buffer (one loop thread).
 *
 * Usage: EchoC [PORT]  (0 or none: any free port). Listens on 127.0.0.1,
 * prints "listening PORT", runs until killed (SIGTERM). */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#define QUEUE_LIMIT (1u << 20)

typedef struct {
    uv_tcp_t tcp;
    size_t queued;
    int paused;
} connection_t;

typedef struct {
    uv_write_t request;
    size_t length;
    char data[];
} write_t;

static char read_buffer[64 * 1024];

static void on_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buffer) {
    (void)handle;
    (void)suggested;
    *buffer = uv_buf_init(read_buffer, sizeof read_buffer);
}

static void on_closed(uv_handle_t *handle) {
    free(handle);
}

static void close_connection(connection_t *connection) {
    if (!uv_is_closing((uv_handle_t *)&connection->tcp)) uv_close((uv_handle_t *)&connection->tcp, on_closed);
}

static void on_read(uv_stream_t *stream, ssize_t count, const uv_buf_t *buffer);

static void on_written(uv_write_t *request, int status) {
    write_t *write = (write_t *)request;
    connection_t *connection = (connection_t *)request->handle;
    connection->queued -= write->length;
    free(write);
    if (status < 0) {
        close_connection(connection);
        return;
    }
    if (connection->queued == 0 && connection->paused && !uv_is_closing((uv_handle_t *)&connection->tcp)) {
        connection->paused = 0;
        uv_read_start((uv_stream_t *)&connection->tcp, on_alloc, on_read);
    }
}

static void on_read(uv_stream_t *stream, ssize_t count, const uv_buf_t *buffer) {
    connection_t *connection = (connection_t *)stream;
    if (count < 0) {
        close_connection(connection);
        return;
    }
    if (count == 0) return;
    size_t offset = 0;
    if (connection->queued == 0) {
        uv_buf_t all = uv_buf_init(buffer->base, (unsigned)count);
        int written = uv_try_write(stream, &all, 1);
        if (written == count) return;
        if (written < 0 && written != UV_EAGAIN) {
            close_connection(connection);
            return;
        }
        if (written > 0) offset = (size_t)written;
    }
    size_t rest = (size_t)count - offset;
    write_t *write = malloc(sizeof *write + rest);
    memcpy(write->data, buffer->base + offset, rest);
    write->length = rest;
    uv_buf_t queued = uv_buf_init(write->data, (unsigned)rest);
    if (uv_write(&write->request, stream, &queued, 1, on_written) < 0) {
        free(write);
        close_connection(connection);
        return;
    }
    connection->queued += rest;
    if (connection->queued >= QUEUE_LIMIT && !connection->paused) {
        connection->paused = 1;
        uv_read_stop(stream);
    }
}

static void on_connection(uv_stream_t *server, int status) {
    if (status < 0) return;
    connection_t *connection = calloc(1, sizeof *connection);
    uv_tcp_init(server->loop, &connection->tcp);
    if (uv_accept(server, (uv_stream_t *)&connection->tcp) < 0) {
        close_connection(connection);
        return;
    }
    uv_tcp_nodelay(&connection->tcp, 1);
    uv_read_start((uv_stream_t *)&connection->tcp, on_alloc, on_read);
}

int main(int argc, char **argv) {
    int port = argc > 1 ? atoi(argv[1]) : 0;
    /* A peer that resets makes write() raise SIGPIPE; libuv expects the
     * program to ignore it and reports EPIPE instead. */
    signal(SIGPIPE, SIG_IGN);
    uv_loop_t *loop = uv_default_loop();
    uv_tcp_t server;
    uv_tcp_init(loop, &server);
    struct sockaddr_in address;
    uv_ip4_addr("127.0.0.1", port, &address);
    int result = uv_tcp_bind(&server, (const struct sockaddr *)&address, 0);
    if (result == 0) result = uv_listen((uv_stream_t *)&server, 511, on_connection);
    if (result < 0) {
        fprintf(stderr, "EchoC: %s\n", uv_strerror(result));
        return 1;
    }
    struct sockaddr_in bound;
    int length = sizeof bound;
    uv_tcp_getsockname(&server, (struct sockaddr *)&bound, &length);
    printf("listening %d\n", ntohs(bound.sin_port));
    fflush(stdout);
    return uv_run(loop, UV_RUN_DEFAULT);
}
