// System calls the C library declares only under _GNU_SOURCE, or not at all, for Swift.
#include <stddef.h>
#ifdef __linux__
#include <sys/syscall.h>
#include <unistd.h>

// getdents64(2): the entries of an open folder into `buffer`, without allocating, so a signal
// handler may list a folder (opendir and readdir allocate).
static inline long ferry_getdents64(int descriptor, void *buffer, size_t count) {
    return syscall(SYS_getdents64, descriptor, buffer, count);
}
#endif
