/*
 * The C-speed bound for reading a store's records: one prepared SELECT of every column of a
 * table, stepped to the end, each value fetched by its storage type and text and blobs copied
 * out (what a reader that hands the values on must do). No model, no checks. Built by the
 * benchmark driver.
 *
 * usage: store_read_loop STORE.sqlite TABLE EXPECTED_ROWS
 * Exits 1 when the store cannot be read or holds another number of rows.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: store_read_loop STORE.sqlite TABLE EXPECTED_ROWS\n");
        return 2;
    }
    sqlite3 *db;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], sqlite3_errmsg(db));
        return 1;
    }
    char *sql = sqlite3_mprintf("SELECT * FROM \"%w\"", argv[2]);
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db, sql, -1, &statement, NULL) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], sqlite3_errmsg(db));
        return 1;
    }
    sqlite3_free(sql);
    int columns = sqlite3_column_count(statement);
    long long rows = 0, checksum = 0;
    int status;
    while ((status = sqlite3_step(statement)) == SQLITE_ROW) {
        rows++;
        for (int i = 0; i < columns; i++) {
            switch (sqlite3_column_type(statement, i)) {
            case SQLITE_INTEGER:
                checksum += sqlite3_column_int64(statement, i);
                break;
            case SQLITE_FLOAT:
                checksum += (long long)sqlite3_column_double(statement, i);
                break;
            case SQLITE_TEXT:
            case SQLITE_BLOB: {
                const void *bytes = sqlite3_column_blob(statement, i);
                int length = sqlite3_column_bytes(statement, i);
                unsigned char *copy = malloc(length > 0 ? length : 1);
                if (length > 0) memcpy(copy, bytes, length);
                checksum += length > 0 ? copy[0] : 0;
                free(copy);
                break;
            }
            default:
                break;
            }
        }
    }
    if (status != SQLITE_DONE) {
        fprintf(stderr, "%s: %s\n", argv[1], sqlite3_errmsg(db));
        return 1;
    }
    sqlite3_finalize(statement);
    sqlite3_close(db);
    if (rows != atoll(argv[3])) {
        fprintf(stderr, "%s: %lld rows in %s, expected %s\n", argv[1], rows, argv[2], argv[3]);
        return 1;
    }
    printf("%lld rows, checksum %lld\n", rows, checksum);
    return 0;
}
