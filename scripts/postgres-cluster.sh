#!/usr/bin/env bash
# Starts or stops a throwaway PostgreSQL 15 cluster for the database examples
# (Examples/ServerTodos's TodoDatabaseTests): trust authentication for `postgres`, loopback only,
# on a free port, in FOLDER. As root the server runs as Debian's `postgres` user (it refuses root).
#
#   scripts/postgres-cluster.sh start FOLDER   prints 127.0.0.1:PORT (export it as
#                                              SERVER_TODOS_POSTGRES for the examples' tests)
#   scripts/postgres-cluster.sh stop FOLDER
set -euo pipefail
binaries=/usr/lib/postgresql/15/bin
action=${1:?usage: $0 start|stop FOLDER}
folder=${2:?usage: $0 start|stop FOLDER}
as_server=()
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
  as_server=(runuser -u postgres --)
fi
case "$action" in
  start)
    mkdir -p "$folder"
    [ ${#as_server[@]} -gt 0 ] && chown postgres "$folder"
    "${as_server[@]}" "$binaries/initdb" -D "$folder/data" -U postgres --auth=trust -E UTF8 \
      --locale=C.UTF-8 --no-sync >"$folder/initdb.log"
    for _ in 1 2 3 4 5 6 7 8; do
      port=$((20000 + RANDOM % 40000))
      if "${as_server[@]}" "$binaries/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $folder -c fsync=off -c synchronous_commit=off" \
        start >/dev/null; then
        echo "127.0.0.1:$port"
        exit 0
      fi
    done
    echo "PostgreSQL did not start; see $folder/server.log" >&2
    exit 1
    ;;
  stop)
    "${as_server[@]}" "$binaries/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null
    rm -rf "$folder"
    ;;
  *)
    echo "usage: $0 start|stop FOLDER" >&2
    exit 2
    ;;
esac
