// SQLite's C library, the database benchmark's SQLite "driver".
#include <sqlite3.h>
