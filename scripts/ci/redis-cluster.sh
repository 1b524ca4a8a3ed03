#!/usr/bin/env bash
# A Redis Cluster on this machine for the "engines" CI stage and for local runs of
# `npm run test:engines`: three masters and one replica each on 127.0.0.1:7001-7006, data under
# /tmp/redis-cluster, nothing persisted. Idempotent: when the cluster already answers with
# cluster_state:ok it does nothing; otherwise it starts the nodes that are not running and creates
# the cluster if the nodes have none yet.
set -euo pipefail

ports=(7001 7002 7003 7004 7005 7006)
base=${REDIS_CLUSTER_DIR:-/tmp/redis-cluster}
# Short timeouts so that a failover (a master stopped) completes within seconds.
node_timeout=${REDIS_CLUSTER_NODE_TIMEOUT:-2000}

state() { redis-cli -h 127.0.0.1 -p "${ports[0]}" cluster info 2>/dev/null | tr -d '\r' | grep -o 'cluster_state:[a-z]*' || true; }

if [ "$(state)" = "cluster_state:ok" ]; then
  echo "redis cluster: already up on ${ports[0]}-${ports[5]}"
  exit 0
fi

for port in "${ports[@]}"; do
  if redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1; then continue; fi
  dir="$base/$port"
  mkdir -p "$dir"
  # A node that is not running starts afresh: its old cluster config names peers that are gone.
  rm -f "$dir/nodes.conf"
  redis-server --port "$port" --bind 127.0.0.1 --daemonize yes --dir "$dir" \
    --logfile "$dir/redis.log" --pidfile "$dir/redis.pid" \
    --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout "$node_timeout" \
    --save "" --appendonly no
done

for port in "${ports[@]}"; do
  for _ in $(seq 1 50); do
    redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.1
  done
done

# Create the cluster only if no node knows of one yet (cluster_known_nodes 1 on each); a cluster
# that exists but is not ok yet (a node restarting) is waited for below.
known=$(redis-cli -h 127.0.0.1 -p "${ports[0]}" cluster info | tr -d '\r' | grep -o 'cluster_known_nodes:[0-9]*' | cut -d: -f2)
if [ "${known:-1}" = "1" ]; then
  for port in "${ports[@]}"; do redis-cli -h 127.0.0.1 -p "$port" flushall >/dev/null; done
  redis-cli --cluster create $(printf '127.0.0.1:%s ' "${ports[@]}") --cluster-replicas 1 --cluster-yes >"$base/create.log" 2>&1 || {
    cat "$base/create.log"
    exit 1
  }
fi

for _ in $(seq 1 100); do
  if [ "$(state)" = "cluster_state:ok" ]; then
    echo "redis cluster: ok on ${ports[0]}-${ports[5]}"
    exit 0
  fi
  sleep 0.2
done
echo "redis cluster: not ok after 20 s"
redis-cli -h 127.0.0.1 -p "${ports[0]}" cluster info || true
exit 1
