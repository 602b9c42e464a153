#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and benchmarks (docs/architecture.md "Data layer").
#   scripts/pg-cluster.sh start <dir> <port>   prints the TEST_DATABASE_URL to use
#   scripts/pg-cluster.sh stop <dir>
# Debian's postgresql package; initdb refuses root, so as root it runs as the postgres user. The app
# connects as "lm", a database owner that may create databases but is not a superuser (as managed
# PostgreSQL services give).
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?cluster directory}
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
case "$cmd" in
  start)
    port=${3:?port}
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
    if [ ! -f "$dir/PG_VERSION" ]; then
      as_pg "$bin/initdb" -D "$dir" -U postgres -A trust --no-sync -E UTF8 --locale=C.UTF-8 >/dev/null
    fi
    as_pg "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null
    as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -q -v ON_ERROR_STOP=1 -c "DO \$\$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lm') THEN CREATE ROLE lm LOGIN CREATEDB PASSWORD 'lm'; END IF;
    END \$\$;" >/dev/null
    as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -q -tc "SELECT 1 FROM pg_database WHERE datname = 'lm'" | grep -q 1 ||
      as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -q -c "CREATE DATABASE lm OWNER lm" >/dev/null
    echo "postgres://lm:lm@127.0.0.1:$port/lm"
    ;;
  stop)
    as_pg "$bin/pg_ctl" -D "$dir" -m fast -w stop >/dev/null || true
    ;;
  *) echo "usage: $0 start <dir> <port> | stop <dir>" >&2; exit 2 ;;
esac
