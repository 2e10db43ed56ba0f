/*
 * The C-speed bound for importing upload CSV rows: parse each row (RFC 4180 quoting) and insert
 * it with one prepared statement, all in one transaction, into a table typed like Core Data's.
 * No checks, no bookkeeping: what a plain C loop over SQLite costs. Built by the benchmark driver.
 *
 * usage: csv_insert_loop INPUT.csv OUTPUT.sqlite
 * Columns: fileName, fileSize, fileType, finishStatus, imageData (base64), time, urlPath.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COLUMNS = 7 };

static int base64_value(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Decodes base64 text into out (at least 3/4 of length); returns the byte count. */
static size_t base64_decode(const unsigned char *text, size_t length, unsigned char *out) {
    size_t count = 0;
    unsigned int bits = 0, held = 0;
    for (size_t i = 0; i < length; i++) {
        int value = base64_value(text[i]);
        if (value < 0) continue;
        bits = (bits << 6) | (unsigned int)value;
        held += 6;
        if (held >= 8) {
            held -= 8;
            out[count++] = (unsigned char)(bits >> held);
        }
    }
    return count;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: %s INPUT.csv OUTPUT.sqlite\n", argv[0]); return 2; }
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 3; }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *data = malloc((size_t)size + 1);
    if (!data || fread(data, 1, (size_t)size, file) != (size_t)size) { fprintf(stderr, "cannot read %s\n", argv[1]); return 3; }
    fclose(file);

    sqlite3 *db;
    if (sqlite3_open(argv[2], &db) != SQLITE_OK) { fprintf(stderr, "%s\n", sqlite3_errmsg(db)); return 4; }
    sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
                     "CREATE TABLE ZUPLOADENTITY (Z_PK INTEGER PRIMARY KEY, ZFILENAME VARCHAR, ZFILESIZE VARCHAR, ZFILETYPE INTEGER,"
                     " ZFINISHSTATUS INTEGER, ZIMAGEDATA BLOB, ZTIME INTEGER, ZURLPATH VARCHAR); BEGIN", 0, 0, 0);
    sqlite3_stmt *insert;
    sqlite3_prepare_v2(db, "INSERT INTO ZUPLOADENTITY VALUES (?, ?, ?, ?, ?, ?, ?, ?)", -1, &insert, 0);

    unsigned char *scratch = malloc((size_t)size + 1);   /* unquoted fields and decoded blobs */
    const unsigned char *start[COLUMNS];
    size_t length[COLUMNS];
    size_t at = 0, row = 0;
    while (at < (size_t)size && data[at] != '\n') at++;  /* the header */
    at++;
    while (at < (size_t)size) {
        size_t used = 0;
        for (int column = 0; column < COLUMNS; column++) {
            if (at < (size_t)size && data[at] == '"') {
                at++;
                start[column] = scratch + used;
                size_t begin = used;
                while (at < (size_t)size) {
                    if (data[at] == '"') {
                        if (at + 1 < (size_t)size && data[at + 1] == '"') { scratch[used++] = '"'; at += 2; continue; }
                        at++;
                        break;
                    }
                    scratch[used++] = data[at++];
                }
                length[column] = used - begin;
            } else {
                start[column] = data + at;
                while (at < (size_t)size && data[at] != ',' && data[at] != '\n' && data[at] != '\r') at++;
                length[column] = (size_t)(data + at - start[column]);
            }
            if (at < (size_t)size && data[at] == ',') at++;
        }
        while (at < (size_t)size && (data[at] == '\r' || data[at] == '\n')) at++;
        row++;
        sqlite3_bind_int64(insert, 1, (sqlite3_int64)row);
        sqlite3_bind_text(insert, 2, (const char *)start[0], (int)length[0], SQLITE_STATIC);
        sqlite3_bind_text(insert, 3, (const char *)start[1], (int)length[1], SQLITE_STATIC);
        sqlite3_bind_int64(insert, 4, strtoll((const char *)start[2], 0, 10));
        sqlite3_bind_int64(insert, 5, start[3][0] == '1' || start[3][0] == 't' || start[3][0] == 'T');
        if (length[4] > 0) {
            unsigned char *blob = scratch + used;
            sqlite3_bind_blob(insert, 6, blob, (int)base64_decode(start[4], length[4], blob), SQLITE_STATIC);
        } else {
            sqlite3_bind_null(insert, 6);
        }
        sqlite3_bind_int64(insert, 7, strtoll((const char *)start[5], 0, 10));
        sqlite3_bind_text(insert, 8, (const char *)start[6], (int)length[6], SQLITE_STATIC);
        if (sqlite3_step(insert) != SQLITE_DONE) { fprintf(stderr, "row %zu: %s\n", row, sqlite3_errmsg(db)); return 4; }
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    if (sqlite3_exec(db, "COMMIT", 0, 0, 0) != SQLITE_OK) { fprintf(stderr, "%s\n", sqlite3_errmsg(db)); return 4; }
    sqlite3_close(db);
    printf("%zu rows\n", row);
    return 0;
}
