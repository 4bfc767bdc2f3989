/* The C contender of the timer-lateness benchmark: a 1 ms repeating libuv
 * timer, as plain as it gets. Records CLOCK_MONOTONIC (ns) in each tick's
 * callback and, after the last one, prints one line:
 *
 *     ticks N t1 t2 ... tN
 *
 * Usage: TimerC [N]   (default 2000). The runner (ComposeBenchmarks)
 * computes the lateness, exactly as for TimerCompose. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <uv.h>

static uint64_t *ticks;
static int count, wanted = 2000;

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void on_tick(uv_timer_t *timer) {
    ticks[count++] = now_ns();
    if (count == wanted) uv_close((uv_handle_t *)timer, NULL);
}

int main(int argc, char **argv) {
    if (argc > 1) wanted = atoi(argv[1]);
    if (wanted < 1) wanted = 1;
    ticks = calloc((size_t)wanted, sizeof *ticks);
    uv_loop_t *loop = uv_default_loop();
    uv_timer_t timer;
    uv_timer_init(loop, &timer);
    uv_update_time(loop);
    uv_timer_start(&timer, on_tick, 1, 1);
    uv_run(loop, UV_RUN_DEFAULT);
    uv_loop_close(loop);
    printf("ticks %d", count);
    for (int i = 0; i < count; i++) printf(" %llu", (unsigned long long)ticks[i]);
    printf("\n");
    free(ticks);
    return 0;
}
