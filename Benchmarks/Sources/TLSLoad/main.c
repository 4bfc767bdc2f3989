/* The load client of the TLS benchmarks (make bench-tls), the same for
 * every server: EchoLoad over OpenSSL. One thread, non-blocking sockets,
 * epoll; the sockets are OpenSSL's (SSL_set_fd). The client verifies
 * nothing (SSL_VERIFY_NONE, no trusted certificate loaded): it measures
 * the server, and a verifying client would spend an ECDSA verification
 * more per handshake than the server does. It never resumes a session
 * (no session cache, no tickets asked for): every handshake is a full
 * one.
 *
 * Usage: TLSLoad PORT MODE CONNECTIONS SIZE WARMUP_MS DURATION_MS
 *
 *   pingpong   each connection sends SIZE bytes, waits until all SIZE came
 *              back, records the round trip, sends again;
 *   stream     each connection writes SIZE-byte chunks continuously while
 *              fewer than WINDOW bytes are unechoed, and reads back all
 *              it can, without decrypting it: after one echo through
 *              OpenSSL (which also takes the server's session tickets), it
 *              reads the socket itself and counts the records' payloads
 *              from their headers (TLS 1.3's AEAD records: length minus
 *              the 16-byte tag and the content-type byte). Decrypting
 *              every echo, the client did what the server does and was
 *              the bottleneck (100% of its CPU at 650 MB/s);
 *   handshake  CONNECTIONS connections at a time each connect, complete a
 *              full handshake, send close_notify and close, and start
 *              again (SIZE is ignored);
 *   idle       opens CONNECTIONS connections, completes their handshakes,
 *              echoes SIZE bytes on each once, prints "ready N", then
 *              holds them idle until its standard input ends (WARMUP_MS
 *              and DURATION_MS are ignored).
 *
 * The connections of pingpong and stream complete their handshakes
 * before the warm-up starts. Prints one line:
 *
 *   messages=M bytes=B seconds=S p50_us=X p99_us=Y all_messages=N all_bytes=A handshakes=H all_handshakes=K cpu_s=C wall_s=W
 *
 * (as EchoLoad's; handshakes: completed in the measured time, all:
 * in the whole run; cpu_s: this client's user + system CPU time over the
 * run, wall_s its length, so that cpu_s / wall_s near 1 says the client,
 * not the server, was the bottleneck). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define WINDOW (256 * 1024)
#define MAX_EVENTS 64

enum state { CONNECTING, HANDSHAKING, OPEN };

typedef struct {
    int fd;
    SSL *ssl;
    enum state state;
    size_t received;  /* pingpong: bytes of the current echo */
    uint64_t sent_at; /* pingpong: when the current message went out */
    size_t unechoed;  /* stream: written and not read back */
    uint32_t events;  /* what epoll watches */
    int raw;          /* stream: the echoes are read and counted undecrypted */
    unsigned char header[5];
    size_t header_filled; /* bytes of the current record's header read */
    size_t body_left;     /* bytes of the current record's body to skip */
    size_t record_payload; /* the current record's payload bytes */
} connection_t;

/* Counts the payload bytes of the TLS 1.3 records in `data` (a raw
 * connection's next bytes), from their headers. */
static size_t count_records(connection_t *connection, const unsigned char *data, size_t count) {
    size_t payload = 0;
    while (count > 0) {
        if (connection->body_left > 0) {
            size_t skipped = count < connection->body_left ? count : connection->body_left;
            connection->body_left -= skipped;
            data += skipped;
            count -= skipped;
            /* Counted once whole: then all of it came back. */
            if (connection->body_left == 0) payload += connection->record_payload;
            continue;
        }
        connection->header[connection->header_filled++] = *data++;
        count--;
        if (connection->header_filled == 5) {
            connection->header_filled = 0;
            size_t length = ((size_t)connection->header[3] << 8) | connection->header[4];
            if (connection->header[0] != 23 || length < 17) {
                fprintf(stderr, "TLSLoad: a record that is not application data (type %d, %zu bytes)\n", connection->header[0], length);
                exit(1);
            }
            connection->body_left = length;
            connection->record_payload = length - 17;
        }
    }
    return payload;
}

static SSL_CTX *context;
static int epoll_fd;
static struct sockaddr_in address;

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void fail(const char *what) {
    fprintf(stderr, "TLSLoad: %s: %s\n", what, strerror(errno));
    ERR_print_errors_fp(stderr);
    exit(1);
}

static void fail_ssl(const char *what, SSL *ssl, int result) {
    fprintf(stderr, "TLSLoad: %s failed (SSL error %d, errno %s)\n", what, SSL_get_error(ssl, result), strerror(errno));
    ERR_print_errors_fp(stderr);
    exit(1);
}

static int compare(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static uint32_t *samples;
static size_t sample_count, sample_capacity;

static void record(uint32_t nanoseconds) {
    if (sample_count == sample_capacity) {
        sample_capacity = sample_capacity ? sample_capacity * 2 : 1 << 16;
        samples = realloc(samples, sample_capacity * sizeof *samples);
        if (!samples) fail("realloc");
    }
    samples[sample_count++] = nanoseconds;
}

static void watch(connection_t *connection, int operation, uint32_t events) {
    if (operation == EPOLL_CTL_MOD && events == connection->events) return;
    struct epoll_event event = {.events = events, .data.ptr = connection};
    if (epoll_ctl(epoll_fd, operation, connection->fd, &event) < 0) fail("epoll_ctl");
    connection->events = events;
}

/* A new TCP connection (non-blocking connect) and its SSL. */
static void open_connection(connection_t *connection) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) fail("socket");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    connection->fd = fd;
    connection->ssl = SSL_new(context);
    if (!connection->ssl) fail("SSL_new");
    SSL_set_fd(connection->ssl, fd);
    SSL_set_connect_state(connection->ssl);
    connection->received = 0;
    connection->unechoed = 0;
    if (connect(fd, (struct sockaddr *)&address, sizeof address) == 0) {
        connection->state = HANDSHAKING;
    } else if (errno == EINPROGRESS) {
        connection->state = CONNECTING;
    } else {
        fail("connect");
    }
    watch(connection, EPOLL_CTL_ADD, EPOLLOUT);
}

static void close_connection(connection_t *connection) {
    SSL_shutdown(connection->ssl); /* close_notify; the answer is not awaited */
    SSL_free(connection->ssl);
    connection->ssl = NULL;
    close(connection->fd); /* also removes it from epoll */
    connection->fd = -1;
    ERR_clear_error();
}

/* Advances a connection's connect and handshake; 1 when it completed. */
static int advance_handshake(connection_t *connection) {
    if (connection->state == CONNECTING) {
        int error = 0;
        socklen_t length = sizeof error;
        getsockopt(connection->fd, SOL_SOCKET, SO_ERROR, &error, &length);
        if (error != 0) {
            errno = error;
            fail("connect");
        }
        connection->state = HANDSHAKING;
    }
    int result = SSL_do_handshake(connection->ssl);
    if (result == 1) {
        connection->state = OPEN;
        return 1;
    }
    switch (SSL_get_error(connection->ssl, result)) {
    case SSL_ERROR_WANT_READ:
        watch(connection, EPOLL_CTL_MOD, EPOLLIN);
        return 0;
    case SSL_ERROR_WANT_WRITE:
        watch(connection, EPOLL_CTL_MOD, EPOLLOUT);
        return 0;
    default:
        fail_ssl("the handshake", connection->ssl, result);
        return 0;
    }
}

/* Writes all of `size` bytes (64 B ping-pong messages and the idle
 * connections' one message: the socket always has room). */
static void write_all(connection_t *connection, const char *data, size_t size) {
    size_t done = 0;
    while (done < size) {
        size_t written = 0;
        int result = SSL_write_ex(connection->ssl, data + done, size - done, &written);
        if (result == 1) {
            done += written;
            continue;
        }
        int error = SSL_get_error(connection->ssl, result);
        if (error != SSL_ERROR_WANT_WRITE && error != SSL_ERROR_WANT_READ) fail_ssl("SSL_write", connection->ssl, result);
    }
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: TLSLoad PORT pingpong|stream|handshake|idle CONNECTIONS SIZE WARMUP_MS DURATION_MS\n");
        return 2;
    }
    int port = atoi(argv[1]);
    const char *mode = argv[2];
    int streaming = strcmp(mode, "stream") == 0, handshaking = strcmp(mode, "handshake") == 0, idling = strcmp(mode, "idle") == 0;
    if (!streaming && !handshaking && !idling && strcmp(mode, "pingpong") != 0) {
        fprintf(stderr, "TLSLoad: unknown mode %s\n", mode);
        return 2;
    }
    int count = atoi(argv[3]);
    size_t size = (size_t)atol(argv[4]);
    uint64_t warmup = (uint64_t)atol(argv[5]) * 1000000u;
    uint64_t duration = (uint64_t)atol(argv[6]) * 1000000u;
    if (port <= 0 || count <= 0 || size == 0) {
        fprintf(stderr, "TLSLoad: bad arguments\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);

    context = SSL_CTX_new(TLS_client_method());
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    SSL_CTX_set_verify(context, SSL_VERIFY_NONE, NULL);
    SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_options(context, SSL_OP_NO_TICKET);
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);

    char *message = malloc(size);
    memset(message, 'x', size);
    size_t buffer_size = 256 * 1024;
    char *buffer = malloc(buffer_size);
    connection_t *connections = calloc((size_t)count, sizeof *connections);
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    if (epoll_fd < 0) fail("epoll_create1");
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    uint64_t started = now_ns();
    struct epoll_event events[MAX_EVENTS];

    /* Every connection opened and its handshake completed (not in
     * handshake mode, which does that again and again). */
    for (int i = 0; i < count; i++) open_connection(&connections[i]);
    if (!handshaking) {
        int left = count;
        while (left > 0) {
            int ready = epoll_wait(epoll_fd, events, MAX_EVENTS, 10000);
            if (ready < 0 && errno != EINTR) fail("epoll_wait");
            if (ready == 0) {
                fprintf(stderr, "TLSLoad: handshakes still pending after 10 s\n");
                return 1;
            }
            for (int e = 0; e < ready; e++) {
                connection_t *connection = events[e].data.ptr;
                if (connection->state != OPEN && advance_handshake(connection)) {
                    left--;
                    watch(connection, EPOLL_CTL_MOD, streaming ? EPOLLIN | EPOLLOUT : EPOLLIN);
                }
            }
        }
    }

    if (streaming) {
        /* One echo through OpenSSL (it takes the session tickets that
         * TLS 1.3 servers send after the handshake), then raw counting. */
        for (int i = 0; i < count; i++) {
            connection_t *connection = &connections[i];
            write_all(connection, message, size);
            size_t received = 0;
            while (received < size) {
                size_t got = 0;
                int result = SSL_read_ex(connection->ssl, buffer, buffer_size, &got);
                if (result == 1) {
                    received += got;
                    continue;
                }
                if (SSL_get_error(connection->ssl, result) != SSL_ERROR_WANT_READ) fail_ssl("SSL_read", connection->ssl, result);
                struct epoll_event event;
                if (epoll_wait(epoll_fd, &event, 1, 10000) < 0 && errno != EINTR) fail("epoll_wait");
            }
            if (SSL_pending(connection->ssl) > 0 || SSL_has_pending(connection->ssl)) {
                fprintf(stderr, "TLSLoad: OpenSSL holds bytes after the first echo\n");
                return 1;
            }
            connection->raw = 1;
        }
    }

    if (idling) {
        /* One echo each, then idle until standard input ends. */
        for (int i = 0; i < count; i++) {
            connection_t *connection = &connections[i];
            write_all(connection, message, size);
            size_t received = 0;
            while (received < size) {
                size_t got = 0;
                int result = SSL_read_ex(connection->ssl, buffer, buffer_size, &got);
                if (result == 1) {
                    received += got;
                    continue;
                }
                if (SSL_get_error(connection->ssl, result) != SSL_ERROR_WANT_READ) fail_ssl("SSL_read", connection->ssl, result);
                struct epoll_event event;
                if (epoll_wait(epoll_fd, &event, 1, 10000) < 0 && errno != EINTR) fail("epoll_wait");
            }
        }
        printf("ready %d\n", count);
        fflush(stdout);
        while (read(0, buffer, buffer_size) > 0) {
        }
        for (int i = 0; i < count; i++) close_connection(&connections[i]);
        return 0;
    }

    uint64_t start = now_ns();
    uint64_t measure_from = start + warmup, end = measure_from + duration;
    if (!streaming && !handshaking) {
        for (int i = 0; i < count; i++) {
            connections[i].sent_at = now_ns();
            write_all(&connections[i], message, size);
        }
    }

    uint64_t messages = 0, bytes = 0, all_messages = 0, all_bytes = 0, handshakes = 0, all_handshakes = 0;
    int draining = 0;
    uint64_t drain_deadline = end + 5000000000u;
    for (;;) {
        uint64_t now = now_ns();
        if (now >= end && !draining) {
            draining = 1;
            if (handshaking) break;
            for (int i = 0; i < count; i++) watch(&connections[i], EPOLL_CTL_MOD, EPOLLIN);
        }
        if (draining) {
            int pending = 0;
            for (int i = 0; i < count; i++) {
                if (streaming ? connections[i].unechoed > 0 : connections[i].received < size) pending = 1;
            }
            if (!pending) break;
            if (now >= drain_deadline) {
                fprintf(stderr, "TLSLoad: echoes still missing 5 s after the end\n");
                return 1;
            }
        }
        int timeout = draining ? 10 : (int)((end - now) / 1000000u) + 1;
        int ready = epoll_wait(epoll_fd, events, MAX_EVENTS, timeout);
        if (ready < 0) {
            if (errno == EINTR) continue;
            fail("epoll_wait");
        }
        for (int e = 0; e < ready; e++) {
            connection_t *connection = events[e].data.ptr;
            if (handshaking) {
                if (advance_handshake(connection)) {
                    uint64_t at = now_ns();
                    all_handshakes++;
                    if (at >= measure_from && at < end) handshakes++;
                    close_connection(connection);
                    open_connection(connection);
                }
                continue;
            }
            /* A raw connection: the socket's bytes, counted. */
            while (connection->raw) {
                ssize_t n = recv(connection->fd, buffer, buffer_size, 0);
                if (n < 0) {
                    if (errno == EAGAIN || errno == EINTR) break;
                    fail("recv");
                }
                if (n == 0) {
                    fprintf(stderr, "TLSLoad: the server closed a connection\n");
                    return 1;
                }
                size_t got = count_records(connection, (const unsigned char *)buffer, (size_t)n);
                uint64_t at = now_ns();
                all_bytes += got;
                if (at >= measure_from && at < end) bytes += got;
                connection->unechoed -= got;
                if ((size_t)n < buffer_size) break;
            }
            /* Read everything OpenSSL can give (it may hold records the
             * socket no longer signals). */
            while (!connection->raw) {
                size_t got = 0;
                int result = SSL_read_ex(connection->ssl, buffer, buffer_size, &got);
                if (result != 1) {
                    int error = SSL_get_error(connection->ssl, result);
                    if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) break;
                    fail_ssl("SSL_read (did the server close a connection?)", connection->ssl, result);
                }
                uint64_t at = now_ns();
                all_bytes += got;
                if (at >= measure_from && at < end) bytes += got;
                if (streaming) {
                    connection->unechoed -= got;
                    continue;
                }
                connection->received += got;
                if (connection->received >= size) {
                    all_messages++;
                    if (at >= measure_from && at < end) {
                        messages++;
                        uint64_t trip = at - connection->sent_at;
                        record(trip > UINT32_MAX ? UINT32_MAX : (uint32_t)trip);
                    }
                    if (draining) {
                        connection->received = size; /* done: nothing in flight */
                        break;
                    }
                    connection->received = 0;
                    connection->sent_at = now_ns();
                    write_all(connection, message, size);
                }
            }
            if (streaming && !draining) {
                while (connection->unechoed + size <= WINDOW) {
                    size_t written = 0;
                    int result = SSL_write_ex(connection->ssl, message, size, &written);
                    if (result != 1) {
                        int error = SSL_get_error(connection->ssl, result);
                        if (error == SSL_ERROR_WANT_WRITE || error == SSL_ERROR_WANT_READ) break;
                        fail_ssl("SSL_write", connection->ssl, result);
                    }
                    connection->unechoed += written;
                }
                watch(connection, EPOLL_CTL_MOD, connection->unechoed + size <= WINDOW ? EPOLLIN | EPOLLOUT : EPOLLIN);
            }
        }
    }
    uint64_t finished = now_ns();
    for (int i = 0; i < count; i++) {
        if (connections[i].ssl) close_connection(&connections[i]);
    }
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double cpu = (double)usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + (double)usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;

    double p50 = 0, p99 = 0;
    if (sample_count > 0) {
        qsort(samples, sample_count, sizeof *samples, compare);
        p50 = samples[sample_count / 2] / 1000.0;
        p99 = samples[(size_t)((double)sample_count * 0.99)] / 1000.0;
    }
    printf("messages=%llu bytes=%llu seconds=%.6f p50_us=%.2f p99_us=%.2f all_messages=%llu all_bytes=%llu "
           "handshakes=%llu all_handshakes=%llu cpu_s=%.4f wall_s=%.4f\n",
           (unsigned long long)messages, (unsigned long long)bytes, (double)duration / 1e9, p50, p99,
           (unsigned long long)all_messages, (unsigned long long)all_bytes, (unsigned long long)handshakes,
           (unsigned long long)all_handshakes, cpu, (double)(finished - started) / 1e9);
    free(samples);
    free(buffer);
    free(message);
    free(connections);
    return 0;
}
