#ifndef COMPOSE_CHTTPPARSER_SHIM_H
#define COMPOSE_CHTTPPARSER_SHIM_H

/* Debian's libhttp-parser (libhttp-parser-dev, 2.9.4: the parser Node used
   until v12), for ComposeHTTP only. The helpers below wrap what the header
   declares as macros or bit-fields (Swift imports no function-like macro):
   each is a `static inline` with a `compose_http_` prefix and does nothing
   but what its name says. */

#include <http_parser.h>
#include <stdint.h>

/* HTTP_PARSER_ERRNO(p): the parser's error (HPE_OK, HPE_PAUSED, ...). */
static inline enum http_errno compose_http_errno(const http_parser *parser) {
    return HTTP_PARSER_ERRNO(parser);
}

/* Whether the message being parsed is chunked (F_CHUNKED). */
static inline int compose_http_is_chunked(const http_parser *parser) {
    return (parser->flags & F_CHUNKED) != 0;
}

/* Whether the message carried a Content-Length header (F_CONTENTLENGTH). */
static inline int compose_http_has_content_length(const http_parser *parser) {
    return (parser->flags & F_CONTENTLENGTH) != 0;
}

/* The method of a request (parser->method, a bit-field). */
static inline enum http_method compose_http_method(const http_parser *parser) {
    return (enum http_method)parser->method;
}

/* Whether the request asked to upgrade (parser->upgrade, a bit-field). */
static inline int compose_http_is_upgrade(const http_parser *parser) {
    return parser->upgrade != 0;
}

#endif
