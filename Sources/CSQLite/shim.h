#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call: one fixed-argument wrapper per setting.

// Memory statistics (sqlite3_status) take a process-wide mutex on every allocation; Ferry never
// reads them. Must run before SQLite initializes (before the first connection opens).
static inline int ferry_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// sqlite3_db_config is variadic too. The last connection to a WAL database checkpoints it and
// deletes its -wal when it closes, unless told not to.
static inline int ferry_sqlite3_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

// The errno of the last failed system call on the files of a connection's main database: its
// file, then its -wal or -journal while that is open (SQLite's unix VFS keeps it per file). 0
// when neither failed. A write that failed in SQLite's temporary files (a sort, a statement
// journal, a scratch database) leaves both untouched: this tells the two apart, where
// sqlite3_system_errno says only what the last call of any file was.
static inline int ferry_sqlite3_main_files_errno(sqlite3 *db) {
    int code = 0;
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_LAST_ERRNO, &code) != SQLITE_OK) code = 0;
    if (code != 0) return code;
    sqlite3_file *journal = 0;
    // An in-memory journal (journal_mode=MEMORY, a temporary database) has no xFileControl.
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &journal) == SQLITE_OK && journal && journal->pMethods
        && journal->pMethods->xFileControl
        && journal->pMethods->xFileControl(journal, SQLITE_FCNTL_LAST_ERRNO, &code) != SQLITE_OK) {
        code = 0;
    }
    return code;
}

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if defined(__linux__)
#include <sys/sysmacros.h>
#endif

// Whether any process (this one included) holds a lock on the byte at `offset` of the file at
// `path`: 1 locked, 0 free, -1 unknown (no such file, or a system without /proc/locks).
//
// Linux lists every lock in /proc/locks, so the file is never opened: opening and closing a file
// would release every POSIX lock this process holds on it (SQLite's among them), which is why
// the lock is not probed with fcntl.
static inline int ferry_file_byte_locked(const char *path, long long offset) {
#if defined(__linux__)
    struct stat file;
    if (stat(path, &file) != 0) return -1;
    FILE *locks = fopen("/proc/locks", "re");
    if (!locks) return -1;
    char line[512];
    int found = 0;
    while (!found && fgets(line, sizeof line, locks)) {
        unsigned int major_number, minor_number;
        unsigned long long inode;
        char start[32], end[32];
        // "1: POSIX  ADVISORY  READ 1234 08:01:1835019 128 128"; waiters ("1: -> POSIX …") do not parse.
        if (sscanf(line, "%*d: %*s %*s %*s %*d %x:%x:%llu %31s %31s", &major_number, &minor_number, &inode, start, end) != 5) continue;
        if (major_number != major(file.st_dev) || minor_number != minor(file.st_dev) || inode != (unsigned long long)file.st_ino) continue;
        long long first = atoll(start);
        found = first <= offset && (strcmp(end, "EOF") == 0 || atoll(end) >= offset);
    }
    fclose(locks);
    return found;
#else
    (void)path; (void)offset;
    return -1;
#endif
}
