/* The C contender of the startup benchmark: a plain libuv program whose
 * first callback (a 0 ms timer) prints the CLOCK_MONOTONIC time (ns) at
 * which it ran, as "appeared T", then exits at once (_exit), as the Compose
 * contender does: what the runner counts ends there. The runner takes its
 * own CLOCK_MONOTONIC time just before spawning it. */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

static void on_first(uv_timer_t *timer) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    printf("appeared %llu\n", (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec);
    fflush(stdout);
    (void)timer;
    _exit(0);
}

int main(void) {
    uv_loop_t *loop = uv_default_loop();
    uv_timer_t timer;
    uv_timer_init(loop, &timer);
    uv_timer_start(&timer, on_first, 0, 0);
    uv_run(loop, UV_RUN_DEFAULT);
    uv_loop_close(loop);
    return 0;
}
