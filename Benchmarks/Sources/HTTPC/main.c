/* The floor of the HTTP benchmark (make bench-http, scripts/http_bench.py):
 * a libuv HTTP/1.1 server on libhttp-parser written the way a careful C
 * programmer would, in EchoC's design. Each connection has its parser; the
 * answers of one read (pipelined requests) are gathered into one buffer
 * and written at once with uv_try_write, whatever the socket does not take
 * copied into a uv_write request; while 1 MiB or more is queued, reading
 * pauses until the queue drains. `GET /` answers the 13 bytes "Hello,
 * World!"; `POST /echo` answers its body (up to 1 MiB, else 413); anything
 * else 404; a malformed request 400, then close. Keep-alive as the request
 * says (http_should_keep_alive). The Date line is made once a second.
 *
 * Usage: HTTPC [PORT]  (0 or none: any free port). Listens on 127.0.0.1,
 * prints "listening PORT", runs until killed (SIGTERM). */
#include <http_parser.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uv.h>

#define QUEUE_LIMIT (1u << 20)
#define BODY_LIMIT (1u << 20)
#define URL_LIMIT 8192

typedef struct {
    char *data;
    size_t length, capacity;
} buffer_t;

typedef struct {
    uv_tcp_t tcp;
    http_parser parser;
    buffer_t url, body, out;
    size_t queued;
    int paused, close_after, too_large;
} connection_t;

typedef struct {
    uv_write_t request;
    size_t length;
    char data[];
} write_t;

static char read_buffer[64 * 1024];
static http_parser_settings settings;
static char date_line[64];
static size_t date_length;
static time_t date_second = -1;

static void append(buffer_t *buffer, const char *data, size_t length) {
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity * 2 : 1024;
        while (capacity < buffer->length + length) capacity *= 2;
        buffer->data = realloc(buffer->data, capacity);
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, data, length);
    buffer->length += length;
}

static void update_date(void) {
    time_t now = time(NULL);
    if (now == date_second) return;
    date_second = now;
    struct tm tm;
    gmtime_r(&now, &tm);
    date_length = strftime(date_line, sizeof date_line, "Date: %a, %d %b %Y %H:%M:%S GMT\r\n", &tm);
}

static void on_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buffer) {
    (void)handle;
    (void)suggested;
    *buffer = uv_buf_init(read_buffer, sizeof read_buffer);
}

static void on_closed(uv_handle_t *handle) {
    connection_t *connection = (connection_t *)handle;
    free(connection->url.data);
    free(connection->body.data);
    free(connection->out.data);
    free(connection);
}

static void close_connection(connection_t *connection) {
    if (!uv_is_closing((uv_handle_t *)&connection->tcp)) uv_close((uv_handle_t *)&connection->tcp, on_closed);
}

static void respond(connection_t *connection, const char *status, const char *body, size_t length, int keep_alive) {
    char head[128];
    int count = snprintf(head, sizeof head, "HTTP/1.1 %s\r\nContent-Length: %zu\r\n", status, length);
    append(&connection->out, head, (size_t)count);
    update_date();
    append(&connection->out, date_line, date_length);
    if (!keep_alive) append(&connection->out, "Connection: close\r\n", 19);
    append(&connection->out, "\r\n", 2);
    append(&connection->out, body, length);
    if (!keep_alive) connection->close_after = 1;
}

static int on_message_begin(http_parser *parser) {
    connection_t *connection = parser->data;
    connection->url.length = 0;
    connection->body.length = 0;
    connection->too_large = 0;
    return 0;
}

static int on_url(http_parser *parser, const char *at, size_t length) {
    connection_t *connection = parser->data;
    if (connection->url.length + length > URL_LIMIT) return 1;
    append(&connection->url, at, length);
    return 0;
}

static int on_body(http_parser *parser, const char *at, size_t length) {
    connection_t *connection = parser->data;
    if (connection->body.length + length > BODY_LIMIT) {
        connection->too_large = 1;
        return 0;
    }
    append(&connection->body, at, length);
    return 0;
}

static int on_message_complete(http_parser *parser) {
    connection_t *connection = parser->data;
    int keep_alive = http_should_keep_alive(parser);
    const buffer_t *url = &connection->url;
    if (parser->method == HTTP_GET && url->length == 1 && url->data[0] == '/') {
        respond(connection, "200 OK", "Hello, World!", 13, keep_alive);
    } else if (parser->method == HTTP_POST && url->length == 5 && memcmp(url->data, "/echo", 5) == 0) {
        if (connection->too_large) respond(connection, "413 Payload Too Large", "", 0, 0);
        else respond(connection, "200 OK", connection->body.data ? connection->body.data : "", connection->body.length, keep_alive);
    } else {
        respond(connection, "404 Not Found", "", 0, keep_alive);
    }
    /* No request is parsed after one that closes the connection. */
    return connection->close_after ? 1 : 0;
}

static void on_read(uv_stream_t *stream, ssize_t count, const uv_buf_t *buffer);

static void on_written(uv_write_t *request, int status) {
    write_t *write = (write_t *)request;
    connection_t *connection = (connection_t *)request->handle;
    connection->queued -= write->length;
    free(write);
    if (status < 0 || (connection->queued == 0 && connection->close_after)) {
        close_connection(connection);
        return;
    }
    if (connection->queued == 0 && connection->paused && !uv_is_closing((uv_handle_t *)&connection->tcp)) {
        connection->paused = 0;
        uv_read_start((uv_stream_t *)&connection->tcp, on_alloc, on_read);
    }
}

/* Writes the gathered answers: at once if the socket takes them, else the
 * rest is copied into a write request. */
static void flush(connection_t *connection) {
    uv_stream_t *stream = (uv_stream_t *)&connection->tcp;
    buffer_t *out = &connection->out;
    size_t offset = 0;
    if (out->length == 0) return;
    if (connection->queued == 0) {
        uv_buf_t all = uv_buf_init(out->data, (unsigned)out->length);
        int written = uv_try_write(stream, &all, 1);
        if (written == (int)out->length) {
            out->length = 0;
            if (connection->close_after) close_connection(connection);
            return;
        }
        if (written < 0 && written != UV_EAGAIN) {
            close_connection(connection);
            return;
        }
        if (written > 0) offset = (size_t)written;
    }
    size_t rest = out->length - offset;
    write_t *write = malloc(sizeof *write + rest);
    memcpy(write->data, out->data + offset, rest);
    write->length = rest;
    out->length = 0;
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

static void on_read(uv_stream_t *stream, ssize_t count, const uv_buf_t *buffer) {
    connection_t *connection = (connection_t *)stream;
    if (count < 0) {
        close_connection(connection);
        return;
    }
    if (count == 0 || connection->close_after) return;
    size_t parsed = http_parser_execute(&connection->parser, &settings, buffer->base, (size_t)count);
    if (parsed != (size_t)count && !connection->close_after) {
        respond(connection, "400 Bad Request", "", 0, 0);
    }
    flush(connection);
}

static void on_connection(uv_stream_t *server, int status) {
    if (status < 0) return;
    connection_t *connection = calloc(1, sizeof *connection);
    uv_tcp_init(server->loop, &connection->tcp);
    http_parser_init(&connection->parser, HTTP_REQUEST);
    connection->parser.data = connection;
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
    settings.on_message_begin = on_message_begin;
    settings.on_url = on_url;
    settings.on_body = on_body;
    settings.on_message_complete = on_message_complete;
    uv_loop_t *loop = uv_default_loop();
    uv_tcp_t server;
    uv_tcp_init(loop, &server);
    struct sockaddr_in address;
    uv_ip4_addr("127.0.0.1", port, &address);
    int result = uv_tcp_bind(&server, (const struct sockaddr *)&address, 0);
    if (result == 0) result = uv_listen((uv_stream_t *)&server, 511, on_connection);
    if (result < 0) {
        fprintf(stderr, "HTTPC: %s\n", uv_strerror(result));
        return 1;
    }
    struct sockaddr_in bound;
    int length = sizeof bound;
    uv_tcp_getsockname(&server, (struct sockaddr *)&bound, &length);
    printf("listening %d\n", ntohs(bound.sin_port));
    fflush(stdout);
    return uv_run(loop, UV_RUN_DEFAULT);
}
