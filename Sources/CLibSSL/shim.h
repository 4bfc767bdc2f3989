#ifndef COMPOSE_CLIBSSL_SHIM_H
#define COMPOSE_CLIBSSL_SHIM_H

/* The platform's OpenSSL (Debian's libssl-dev, 3.0), for ComposeTLS only.
   The helpers below wrap what OpenSSL declares as macros (Swift imports
   no function-like macro): each is a `static inline` with a
   `compose_tls_` prefix and does nothing but the call its name says. */

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdint.h>

/* SSL_CTX_set_min_proto_version / SSL_CTX_set_max_proto_version. */
static inline int compose_tls_set_min_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}
static inline int compose_tls_set_max_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_max_proto_version(ctx, version);
}

/* The options every context of ComposeTLS sets: no renegotiation (TLS
   1.2's, client- or server-initiated) and no compression (CRIME). */
static inline void compose_tls_set_options(SSL_CTX *ctx) {
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
}

/* SSL_MODE_RELEASE_BUFFERS: an idle connection gives its record buffers
   back (memory per idle connection). */
static inline void compose_tls_set_modes(SSL_CTX *ctx) {
    SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
}

/* SSL_set_tlsext_host_name: the server name a client sends (SNI). */
static inline int compose_tls_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/* BIO_get_mem_data: the bytes a memory BIO holds (a pointer into it, valid
   until the BIO changes) and their count. */
static inline long compose_tls_bio_contents(BIO *bio, char **bytes) {
    return BIO_get_mem_data(bio, bytes);
}

/* BIO_reset on a read-write memory BIO: empties it. */
static inline int compose_tls_bio_clear(BIO *bio) {
    return (int)BIO_reset(bio);
}

/* BIO_set_mem_eof_return(bio, -1): an empty memory BIO means "retry"
   (more bytes will come from the socket), never end of file. */
static inline void compose_tls_bio_retry_when_empty(BIO *bio) {
    BIO_set_mem_eof_return(bio, -1);
}

/* SSL_get_ex_new_index with no callbacks. */
static inline int compose_tls_new_ssl_index(void) {
    return SSL_get_ex_new_index(0, NULL, NULL, NULL, NULL);
}

/* SSL_CTX_set_tlsext_servername_callback and _arg: a server's callback
   for the name a client asks for (SNI), and its argument. */
static inline void compose_tls_set_servername_callback(SSL_CTX *ctx, int (*callback)(SSL *, int *, void *), void *argument) {
    SSL_CTX_set_tlsext_servername_callback(ctx, callback);
    SSL_CTX_set_tlsext_servername_arg(ctx, argument);
}

/* SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name): the name a client
   asked for (a server's), or sent (a client's), if any. */
static inline const char *compose_tls_server_name(const SSL *ssl) {
    return SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
}

#endif
