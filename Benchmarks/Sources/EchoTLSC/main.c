/* The C contender of the TLS echo benchmark (make bench-tls): EchoC's
 * libuv echo server with OpenSSL between the socket and the echo, through
 * two memory BIOs, as Node's tls module does on libuv and ComposeTLS does
 * (TLSEngine, FilteredTransport): what the socket reads is written into
 * the input BIO; the handshake and SSL_read consume it; SSL_write and the
 * handshake write into the output BIO, whose contents go to the socket
 * with uv_try_write, the rest copied into a uv_write request. Each read
 * of the socket is decrypted into one 64 KiB buffer (as many records as
 * fit), which is encrypted back with one SSL_write and sent with one
 * write. While 1 MiB or more is queued on a connection, reading pauses
 * until the queue drains (EchoC's back-pressure).
 *
 * The same OpenSSL settings as ComposeTLS's TLSConfiguration defaults: TLS
 * 1.2 and 1.3, the same forward-secret TLS 1.2 suites, no renegotiation,
 * no compression, SSL_MODE_RELEASE_BUFFERS (an idle connection gives back
 * its record buffers). No handshake timeout (the benchmark's clients all
 * finish theirs).
 *
 * Usage: EchoTLSC PORT CERT KEY  (PORT 0: any free one). Listens on
 * 127.0.0.1, prints "listening PORT", runs until killed (SIGTERM). */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <uv.h>

#define QUEUE_LIMIT (1u << 20)
#define CIPHERS                                                          \
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"         \
    "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"         \
    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"

typedef struct {
    uv_tcp_t tcp;
    SSL *ssl;
    BIO *input;  /* what the socket read (owned by ssl) */
    BIO *output; /* what the socket must send (owned by ssl) */
    size_t queued;
    int paused;
    int closing;
} connection_t;

typedef struct {
    uv_write_t request;
    size_t length;
    char data[];
} write_t;

static SSL_CTX *context;
static char read_buffer[64 * 1024];
static char plain_buffer[64 * 1024];

static void on_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buffer) {
    (void)handle;
    (void)suggested;
    *buffer = uv_buf_init(read_buffer, sizeof read_buffer);
}

static void on_closed(uv_handle_t *handle) {
    connection_t *connection = (connection_t *)handle;
    SSL_free(connection->ssl);
    free(connection);
}

static void close_connection(connection_t *connection) {
    connection->closing = 1;
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
    if (connection->queued == 0 && connection->paused && !connection->closing) {
        connection->paused = 0;
        uv_read_start((uv_stream_t *)&connection->tcp, on_alloc, on_read);
    }
}

/* Sends what OpenSSL wrote into the output BIO: at once if nothing is
 * queued and the socket takes it, the rest copied into a write request. */
static int flush_output(connection_t *connection) {
    char *data;
    long pending = BIO_get_mem_data(connection->output, &data);
    if (pending <= 0) return 0;
    size_t offset = 0;
    if (connection->queued == 0) {
        uv_buf_t all = uv_buf_init(data, (unsigned)pending);
        int written = uv_try_write((uv_stream_t *)&connection->tcp, &all, 1);
        if (written < 0 && written != UV_EAGAIN) return -1;
        if (written > 0) offset = (size_t)written;
    }
    size_t rest = (size_t)pending - offset;
    if (rest > 0) {
        write_t *write = malloc(sizeof *write + rest);
        if (!write) return -1;
        memcpy(write->data, data + offset, rest);
        write->length = rest;
        uv_buf_t queued = uv_buf_init(write->data, (unsigned)rest);
        if (uv_write(&write->request, (uv_stream_t *)&connection->tcp, &queued, 1, on_written) < 0) {
            free(write);
            return -1;
        }
        connection->queued += rest;
    }
    (void)BIO_reset(connection->output);
    return 0;
}

static void on_read(uv_stream_t *stream, ssize_t count, const uv_buf_t *buffer) {
    connection_t *connection = (connection_t *)stream;
    if (count < 0) {
        close_connection(connection);
        return;
    }
    if (count == 0) return;
    BIO_write(connection->input, buffer->base, (int)count);
    if (!SSL_is_init_finished(connection->ssl)) {
        int result = SSL_do_handshake(connection->ssl);
        int failed = result != 1 && SSL_get_error(connection->ssl, result) != SSL_ERROR_WANT_READ;
        if (flush_output(connection) < 0 || failed) {
            ERR_clear_error();
            close_connection(connection);
            return;
        }
        if (result != 1) return;
    }
    for (;;) {
        /* As many records as fit in the buffer, then one SSL_write. */
        size_t filled = 0, got = 0;
        int ended = 0;
        while (filled < sizeof plain_buffer) {
            if (SSL_read_ex(connection->ssl, plain_buffer + filled, sizeof plain_buffer - filled, &got) == 1) {
                filled += got;
                continue;
            }
            int error = SSL_get_error(connection->ssl, 0);
            if (error != SSL_ERROR_WANT_READ) ended = 1;
            ERR_clear_error();
            break;
        }
        if (filled > 0) {
            size_t written = 0;
            if (SSL_write_ex(connection->ssl, plain_buffer, filled, &written) != 1 || written != filled) ended = 1;
        }
        if (flush_output(connection) < 0 || ended) {
            ERR_clear_error();
            close_connection(connection);
            return;
        }
        if (filled < sizeof plain_buffer) break;
    }
    if (connection->queued >= QUEUE_LIMIT && !connection->paused) {
        connection->paused = 1;
        uv_read_stop(stream);
    }
}

static void on_connection(uv_stream_t *server, int status) {
    if (status < 0) return;
    connection_t *connection = calloc(1, sizeof *connection);
    uv_tcp_init(server->loop, &connection->tcp);
    connection->ssl = SSL_new(context);
    connection->input = BIO_new(BIO_s_mem());
    connection->output = BIO_new(BIO_s_mem());
    /* An empty input BIO means "more will come", never end of file. */
    BIO_set_mem_eof_return(connection->input, -1);
    BIO_set_mem_eof_return(connection->output, -1);
    SSL_set_bio(connection->ssl, connection->input, connection->output);
    SSL_set_accept_state(connection->ssl);
    if (uv_accept(server, (uv_stream_t *)&connection->tcp) < 0) {
        close_connection(connection);
        return;
    }
    uv_tcp_nodelay(&connection->tcp, 1);
    uv_read_start((uv_stream_t *)&connection->tcp, on_alloc, on_read);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: EchoTLSC PORT CERT KEY\n");
        return 2;
    }
    int port = atoi(argv[1]);
    signal(SIGPIPE, SIG_IGN);
    context = SSL_CTX_new(TLS_server_method());
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    SSL_CTX_set_max_proto_version(context, TLS1_3_VERSION);
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
    SSL_CTX_set_mode(context, SSL_MODE_RELEASE_BUFFERS);
    if (SSL_CTX_set_cipher_list(context, CIPHERS) != 1 ||
        SSL_CTX_use_certificate_chain_file(context, argv[2]) != 1 ||
        SSL_CTX_use_PrivateKey_file(context, argv[3], SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_check_private_key(context) != 1) {
        fprintf(stderr, "EchoTLSC: cannot use %s and %s\n", argv[2], argv[3]);
        ERR_print_errors_fp(stderr);
        return 1;
    }
    uv_loop_t *loop = uv_default_loop();
    uv_tcp_t server;
    uv_tcp_init(loop, &server);
    struct sockaddr_in address;
    uv_ip4_addr("127.0.0.1", port, &address);
    int result = uv_tcp_bind(&server, (const struct sockaddr *)&address, 0);
    if (result == 0) result = uv_listen((uv_stream_t *)&server, 511, on_connection);
    if (result < 0) {
        fprintf(stderr, "EchoTLSC: %s\n", uv_strerror(result));
        return 1;
    }
    struct sockaddr_in bound;
    int length = sizeof bound;
    uv_tcp_getsockname(&server, (struct sockaddr *)&bound, &length);
    printf("listening %d\n", ntohs(bound.sin_port));
    fflush(stdout);
    return uv_run(loop, UV_RUN_DEFAULT);
}
