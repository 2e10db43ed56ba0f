#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call: one fixed-argument wrapper per setting.

// Memory statistics (sqlite3_status) take a process-wide mutex on every allocation; Ferry never
// reads them. Must run before SQLite initializes (before the first connection opens).
static inline int ferry_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#include <fcntl.h>
#include <unistd.h>

// Whether another connection holds a lock on bytes [offset, offset + length) of the file at
// `path`: 1 locked, 0 free, -1 the file cannot be opened or probed. The probe asks for a write
// lock without taking it. On Linux it uses open-file-description locks (F_OFD_GETLK), which also
// see the POSIX locks SQLite's connections in this very process hold; elsewhere F_GETLK, which sees
// other processes' locks only.
static inline int ferry_file_region_locked(const char *path, long long offset, long long length) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return -1;
    struct flock probe = {0};
    probe.l_type = F_WRLCK;
    probe.l_whence = SEEK_SET;
    probe.l_start = (off_t)offset;
    probe.l_len = (off_t)length;
#if defined(__linux__)
#ifndef F_OFD_GETLK
#define F_OFD_GETLK 36
#endif
    int status = fcntl(fd, F_OFD_GETLK, &probe);
#else
    int status = fcntl(fd, F_GETLK, &probe);
#endif
    close(fd);
    if (status != 0) return -1;
    return probe.l_type == F_UNLCK ? 0 : 1;
}
