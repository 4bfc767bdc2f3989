/* The load client of the echo benchmark, the same for every server: one
 * thread, non-blocking sockets, epoll. (The machine has two cores: one for
 * the client, one for the server under test.)
 *
 * Usage: EchoLoad PORT MODE CONNECTIONS SIZE WARMUP_MS DURATION_MS [LIMIT]
 *
 *   pingpong  each connection sends SIZE bytes, waits until all SIZE came
 *             back, records the round trip, sends again;
 *   stream    each connection writes SIZE-byte chunks continuously while
 *             fewer than WINDOW bytes are unechoed, and reads back all it
 *             can.
 *
 * Connects to 127.0.0.1:PORT (only), runs WARMUP_MS unmeasured, then
 * DURATION_MS measured, waits for the echoes still in flight, closes every
 * socket and prints one line:
 *
 *   messages=M bytes=B seconds=S p50_us=X p99_us=Y all_messages=N all_bytes=A
 *
 * (messages: round trips completed in the measured time; bytes: bytes read
 * back in it; p50/p99: round-trip percentiles, 0 for stream; all_messages
 * and all_bytes: everything echoed in the whole run, warm-up and drain
 * included, which is what the server's CPU time over the run served).
 *
 * LIMIT (optional, for counting a server's system calls and instructions
 * per message, Benchmarks/scripts/echo_counts.py): the run sends exactly
 * LIMIT messages in all (ping-pong) or LIMIT * SIZE bytes (stream), then
 * drains and ends; everything counts from the start (no warmup), and
 * DURATION_MS only caps the run. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define WINDOW (256 * 1024)
#define MAX_EVENTS 64

typedef struct {
    int fd;
    size_t received;    /* pingpong: bytes of the current echo */
    uint64_t sent_at;   /* pingpong: when the current message went out */
    size_t unechoed;    /* stream: written and not read back */
    int wants_write;    /* stream: EPOLLOUT registered */
} connection_t;

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void fail(const char *what) {
    fprintf(stderr, "EchoLoad: %s: %s\n", what, strerror(errno));
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

static void send_all(int fd, const char *data, size_t size) {
    size_t done = 0;
    while (done < size) {
        ssize_t n = send(fd, data + done, size - done, MSG_NOSIGNAL);
        if (n > 0) {
            done += (size_t)n;
        } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
            fail("send");
        }
    }
}

static connection_t *connections;
static int epoll_fd;

static void watch(connection_t *connection, int operation, int writes) {
    struct epoll_event event = {.events = EPOLLIN | (writes ? EPOLLOUT : 0), .data.ptr = connection};
    if (epoll_ctl(epoll_fd, operation, connection->fd, &event) < 0) fail("epoll_ctl");
    connection->wants_write = writes;
}

int main(int argc, char **argv) {
    if (argc != 7 && argc != 8) {
        fprintf(stderr, "usage: EchoLoad PORT pingpong|stream CONNECTIONS SIZE WARMUP_MS DURATION_MS [LIMIT]\n");
        return 2;
    }
    int port = atoi(argv[1]);
    int streaming = strcmp(argv[2], "stream") == 0;
    int count = atoi(argv[3]);
    size_t size = (size_t)atol(argv[4]);
    uint64_t warmup = (uint64_t)atol(argv[5]) * 1000000u;
    uint64_t duration = (uint64_t)atol(argv[6]) * 1000000u;
    /* Messages (ping-pong) or bytes (stream) left to send; UINT64_MAX: no limit. */
    uint64_t left = argc == 8 ? (uint64_t)atoll(argv[7]) : UINT64_MAX;
    if (argc == 8) {
        if (streaming) left *= size;
        warmup = 0;
    }
    if (port <= 0 || count <= 0 || size == 0) {
        fprintf(stderr, "EchoLoad: bad arguments\n");
        return 2;
    }

    char *message = malloc(size);
    memset(message, 'x', size);
    size_t buffer_size = 256 * 1024;
    char *buffer = malloc(buffer_size);
    connections = calloc((size_t)count, sizeof *connections);
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    if (epoll_fd < 0) fail("epoll_create1");

    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    for (int i = 0; i < count; i++) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) fail("socket");
        if (connect(fd, (struct sockaddr *)&address, sizeof address) < 0) fail("connect");
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        connections[i].fd = fd;
        watch(&connections[i], EPOLL_CTL_ADD, streaming);
    }

    uint64_t start = now_ns();
    uint64_t measure_from = start + warmup, end = measure_from + duration;
    if (!streaming) {
        for (int i = 0; i < count; i++) {
            if (left == 0) {
                connections[i].received = size; /* nothing in flight */
                continue;
            }
            if (left != UINT64_MAX) left--;
            connections[i].sent_at = now_ns();
            send_all(connections[i].fd, message, size);
        }
    }

    uint64_t messages = 0, bytes = 0, all_messages = 0, all_bytes = 0;
    struct epoll_event events[MAX_EVENTS];
    /* After the measured time: no new message or chunk; wait for what is
     * in flight to come back, then close gracefully (a close with unread
     * data would make the server's writes fail with a reset). */
    int draining = 0;
    uint64_t drain_deadline = end + 5000000000u;
    for (;;) {
        uint64_t now = now_ns();
        if ((now >= end || left == 0) && !draining) {
            draining = 1;
            for (int i = 0; i < count; i++) {
                if (streaming && connections[i].wants_write) watch(&connections[i], EPOLL_CTL_MOD, 0);
            }
        }
        if (draining) {
            int pending = 0;
            for (int i = 0; i < count; i++) {
                if (streaming ? connections[i].unechoed > 0 : connections[i].received < size) pending = 1;
            }
            if (!pending) break;
            if (now >= drain_deadline) {
                fprintf(stderr, "EchoLoad: echoes still missing 5 s after the end\n");
                exit(1);
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
            if (events[e].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
                for (;;) {
                    ssize_t n = recv(connection->fd, buffer, buffer_size, 0);
                    if (n < 0) {
                        if (errno == EAGAIN || errno == EINTR) break;
                        fail("recv");
                    }
                    if (n == 0) {
                        fprintf(stderr, "EchoLoad: the server closed a connection\n");
                        exit(1);
                    }
                    uint64_t at = now_ns();
                    all_bytes += (uint64_t)n;
                    if (at >= measure_from && at < end) bytes += (uint64_t)n;
                    if (streaming) {
                        connection->unechoed -= (size_t)n;
                        continue;
                    }
                    connection->received += (size_t)n;
                    if (connection->received >= size) {
                        all_messages++;
                        if (at >= measure_from && at < end) {
                            messages++;
                            uint64_t trip = at - connection->sent_at;
                            record(trip > UINT32_MAX ? UINT32_MAX : (uint32_t)trip);
                        }
                        if (draining || left == 0) {
                            connection->received = size; /* done: nothing in flight */
                            break;
                        }
                        if (left != UINT64_MAX) left--;
                        connection->received = 0;
                        connection->sent_at = now_ns();
                        send_all(connection->fd, message, size);
                    }
                    if ((size_t)n < buffer_size) break;
                }
            }
            if (streaming && !draining && (events[e].events & EPOLLOUT)) {
                while (connection->unechoed + size <= WINDOW && left > 0) {
                    size_t chunk = left < size ? (size_t)left : size;
                    ssize_t n = send(connection->fd, message, chunk, MSG_NOSIGNAL);
                    if (n < 0) {
                        if (errno == EAGAIN || errno == EINTR) break;
                        fail("send");
                    }
                    connection->unechoed += (size_t)n;
                    if (left != UINT64_MAX) left -= (uint64_t)n;
                }
            }
            if (streaming && !draining) {
                int writes = connection->unechoed + size <= WINDOW;
                if (writes != connection->wants_write) watch(connection, EPOLL_CTL_MOD, writes);
            }
        }
    }
    for (int i = 0; i < count; i++) close(connections[i].fd);

    double p50 = 0, p99 = 0;
    if (sample_count > 0) {
        qsort(samples, sample_count, sizeof *samples, compare);
        p50 = samples[sample_count / 2] / 1000.0;
        p99 = samples[(size_t)((double)sample_count * 0.99)] / 1000.0;
    }
    printf("messages=%llu bytes=%llu seconds=%.6f p50_us=%.2f p99_us=%.2f all_messages=%llu all_bytes=%llu\n",
           (unsigned long long)messages, (unsigned long long)bytes, (double)duration / 1e9, p50, p99,
           (unsigned long long)all_messages, (unsigned long long)all_bytes);
    free(samples);
    free(buffer);
    free(message);
    free(connections);
    return 0;
}
