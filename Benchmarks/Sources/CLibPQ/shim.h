// PostgreSQL's C client library (libpq), the database benchmark's PostgreSQL "driver".
#include <postgresql/libpq-fe.h>
