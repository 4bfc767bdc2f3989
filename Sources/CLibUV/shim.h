#ifndef COMPOSE_CLIBUV_SHIM_H
#define COMPOSE_CLIBUV_SHIM_H
#include <uv.h>
#endif
