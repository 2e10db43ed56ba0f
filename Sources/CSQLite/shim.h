#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call: one fixed-argument wrapper per setting.

// Memory statistics (sqlite3_status) take a process-wide mutex on every allocation; Ferry never
// reads them. Must run before SQLite initializes (before the first connection opens).
static inline int ferry_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
