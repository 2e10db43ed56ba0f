// OpenSSL's libcrypto, for SHA-256 and SHA-512 (it uses the CPU's SHA extensions where present).
// The one-context-per-hash functions are deprecated in OpenSSL 3 in favour of EVP, whose
// per-call allocation would cost more than hashing the short messages Ferry fingerprints; they
// remain supported, so the deprecation attributes are switched off for this module only.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>
