#!/usr/bin/env bash
# Workers on "other hosts" on this one machine: each `quiver worker` in its own Linux network
# namespace with its own address (10.213.0.2, .3, ...) on a bridge (10.213.0.1), so queries cross a
# real network stack. Needs root and iproute2. From the repository root:
#   deploy/netns/workers.sh start 2     # prints the --workers list
#   ./quiver bench tpch --sf 1 --source parquet --workers 10.213.0.2:7070,10.213.0.3:7070
#   deploy/netns/workers.sh stop
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
readonly BRIDGE=qvnsbr PORT=7070 LOGS=${TMPDIR:-/tmp}/quiver-netns-workers

start() {
    local count=$1 list=""
    ip link add "$BRIDGE" type bridge
    ip addr add 10.213.0.1/24 dev "$BRIDGE"
    ip link set "$BRIDGE" up
    mkdir -p "$LOGS"
    ./quiver --version >/dev/null # builds once if the sources changed, before the workers start
    for ((i = 0; i < count; i++)); do
        local address=10.213.0.$((i + 2))
        ip netns add "quiver-ns$i"
        ip link add "qvnsh$i" type veth peer name "qvnsw$i"
        ip link set "qvnsw$i" netns "quiver-ns$i"
        ip link set "qvnsh$i" master "$BRIDGE" up
        ip -n "quiver-ns$i" addr add "$address/24" dev "qvnsw$i"
        ip -n "quiver-ns$i" link set "qvnsw$i" up
        ip -n "quiver-ns$i" link set lo up
        QUIVER_NO_BUILD=1 nohup ip netns exec "quiver-ns$i" ./quiver worker --host "$address" --port "$PORT" "${@:2}" \
            >"$LOGS/worker$i.log" 2>&1 &
        list+="${list:+,}$address:$PORT"
    done
    for ((i = 0; i < count; i++)); do
        for _ in $(seq 60); do grep -q "listening on" "$LOGS/worker$i.log" && break; sleep 1; done
        grep -q "listening on" "$LOGS/worker$i.log" || { echo "worker $i did not start: $(cat "$LOGS/worker$i.log")" >&2; exit 1; }
    done
    echo "$list"
}

stop() {
    for ns in $(ip netns list | awk '/^quiver-ns[0-9]+/ {print $1}'); do
        ip netns pids "$ns" | xargs -r kill
        sleep 1
        ip netns pids "$ns" | xargs -r kill -9
        ip netns del "$ns"
    done
    for link in $(ip -o link show | awk -F': ' '/qvnsh[0-9]+/ {sub(/@.*/, "", $2); print $2}'); do ip link del "$link"; done
    ip link del "$BRIDGE" 2>/dev/null || true
}

case "${1:-}" in
    start) shift; start "${1:-2}" "${@:2}" ;;
    stop) stop ;;
    *) echo "usage: $0 start [N [worker options...]] | stop" >&2; exit 2 ;;
esac
