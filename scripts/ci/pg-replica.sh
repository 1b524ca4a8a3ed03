#!/usr/bin/env bash
# CI: a streaming read replica of the local PostgreSQL (127.0.0.1:5432) on 127.0.0.1:5433, made
# with pg_basebackup -R into a data folder of its own under /tmp and started with pg_ctl as user
# postgres. Idempotent: a replica that already streams is left as it is; one that stopped is
# started again, and one that cannot catch up (its WAL is gone from the primary) is made anew.
# Prints the replica's lag once it has replayed what the primary had written when it started.
# Runs as root or as postgres; the primary must accept trusted local connections.
set -euo pipefail

primary_port=${PG_PRIMARY_PORT:-5432}
port=${PG_REPLICA_PORT:-5433}
dir=${PG_REPLICA_DIR:-/tmp/pg-replica-$port}
bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)

as_postgres() {
  if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi
}
primary() { psql -h 127.0.0.1 -p "$primary_port" -U postgres -d postgres -Atqc "$1"; }
replica() { psql -h 127.0.0.1 -p "$port" -U postgres -d postgres -Atqc "$1" 2>/dev/null; }

streaming() {
  [ "$(replica 'SELECT pg_is_in_recovery()' || true)" = t ] &&
    [ "$(replica "SELECT status FROM pg_stat_wal_receiver" || true)" = streaming ]
}

# The primary lets 127.0.0.1 replicate without a password (the CI machine's own trust rule for
# every other connection). wal_level=replica and max_wal_senders>0 are PostgreSQL's defaults.
ensure_replication_access() {
  local hba
  hba=$(primary 'SHOW hba_file')
  if ! grep -Eq '^[[:space:]]*host[[:space:]]+replication[[:space:]]+all[[:space:]]+127\.0\.0\.1/32[[:space:]]+trust' "$hba"; then
    echo 'host replication all 127.0.0.1/32 trust' >>"$hba"
    primary 'SELECT pg_reload_conf()' >/dev/null
  fi
  [ "$(primary 'SHOW wal_level')" != minimal ] || { echo "pg-replica: the primary runs wal_level=minimal; set wal_level=replica and restart it" >&2; exit 1; }
  [ "$(primary 'SHOW max_wal_senders')" -gt 0 ] || { echo "pg-replica: the primary has max_wal_senders=0" >&2; exit 1; }
}

# A hot standby needs these at least as high as the primary's; the rest keeps it small beside the
# primary on a shared machine. Debian keeps postgresql.conf and pg_hba.conf outside the data folder,
# so the copy has neither: the replica gets its own.
write_config() {
  local setting
  {
    echo "port = $port"
    echo "listen_addresses = '127.0.0.1'"
    echo "unix_socket_directories = '$dir'"
    echo "hot_standby = on"
    echo "hot_standby_feedback = on"
    echo "shared_buffers = 32MB"
    for setting in max_connections max_worker_processes max_wal_senders max_prepared_transactions max_locks_per_transaction; do
      echo "$setting = $(primary "SHOW $setting")"
    done
  } >"$dir/postgresql.conf"
  printf 'local all all trust\nhost all all 127.0.0.1/32 trust\n' >"$dir/pg_hba.conf"
  : >"$dir/pg_ident.conf"
  chown postgres:postgres "$dir/postgresql.conf" "$dir/pg_hba.conf" "$dir/pg_ident.conf" 2>/dev/null || true
}

make_replica() {
  as_postgres "$bindir/pg_ctl" -D "$dir" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  mkdir -p "$dir"
  chown postgres:postgres "$dir" 2>/dev/null || true
  chmod 700 "$dir"
  as_postgres pg_basebackup -h 127.0.0.1 -p "$primary_port" -U postgres -D "$dir" -R -X stream -c fast
  write_config
}

start_replica() {
  as_postgres "$bindir/pg_ctl" -D "$dir" -l "$dir/replica.log" -w -t 60 start >/dev/null
}

ensure_replication_access
if ! streaming; then
  if [ -f "$dir/standby.signal" ] && [ -f "$dir/postgresql.conf" ]; then
    # Stopped (a reboot, a stop): started again; it catches up if the primary still has its WAL.
    start_replica || true
    for _ in $(seq 1 20); do streaming && break; sleep 0.5; done
  fi
  if ! streaming; then
    echo "pg-replica: making a replica of 127.0.0.1:$primary_port in $dir"
    make_replica
    start_replica
  fi
fi

# Ready: it streams, and it has replayed what the primary had written by now.
target=$(primary 'SELECT pg_current_wal_flush_lsn()')
for _ in $(seq 1 120); do
  [ "$(replica "SELECT pg_last_wal_replay_lsn() >= '$target'::pg_lsn" || true)" = t ] && break
  sleep 0.5
done
[ "$(replica "SELECT pg_last_wal_replay_lsn() >= '$target'::pg_lsn" || true)" = t ] || {
  echo "pg-replica: the replica on port $port did not catch up with the primary" >&2
  tail -n 20 "$dir/replica.log" >&2 || true
  exit 1
}
lag=$(primary "SELECT coalesce(max(pg_wal_lsn_diff(pg_current_wal_flush_lsn(), replay_lsn)), 0)::bigint || ' bytes, replay lag ' || coalesce(max(replay_lag)::text, '0')
               FROM pg_stat_replication WHERE client_addr = '127.0.0.1'")
echo "pg-replica: 127.0.0.1:$port streams from 127.0.0.1:$primary_port; lag $lag"
