#!/usr/bin/env bash
# Soak test, not run by CI: `cube server` and 8 headless `cube client`s on
# loopback for S seconds (default 600), the clients on the good, average,
# bad and lan presets in turn. Reports the server's resident memory
# (VmRSS from /proc, sampled a minute in and at the end, once the clients
# are done) and its tick time from its -json summary, and fails when the
# memory grew by more than 10% after the first minute, when the tick time's
# p99 exceeds 2 ms on the arena, or when a client ended out of sync or saw
# nondeterminism.
#
#   scripts/soak.sh [SECONDS]          SCENE=cubes SYNC=inputs scripts/soak.sh 120
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
scene=${SCENE:-arena}
sync=${SYNC:-state}
clients=8
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds < 70)); then
  echo "usage: scripts/soak.sh [SECONDS], at least 70 (the memory is sampled a minute in)" >&2
  exit 2
fi

tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
go build -o "$tmp/cube" ./cmd/cube

rss() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

"$tmp/cube" server -listen 127.0.0.1:0 -scene "$scene" -sync "$sync" -json >"$tmp/server.out" 2>"$tmp/server.err" &
server=$!
pids+=("$server")
for _ in $(seq 100); do
  [ -s "$tmp/server.out" ] && break
  sleep 0.1
done
read -r word addr _ pin <"$tmp/server.out" || true
if [ "${word:-}" != listening ]; then
  echo "soak: the server did not start:" >&2
  cat "$tmp/server.err" >&2
  exit 1
fi
echo "soak: server $addr ($scene, $sync sync), $clients clients for $seconds s"

presets=(good average bad lan)
cpids=()
for i in $(seq $clients); do
  nice -n 10 "$tmp/cube" client -connect "$addr" -pin "$pin" -scene "$scene" -sync "$sync" -seconds "$seconds" -seed "$i" \
    -preset "${presets[$(((i - 1) % 4))]}" -json >"$tmp/client$i.out" 2>"$tmp/client$i.err" &
  cpids+=($!)
  pids+=($!)
done

sleep 60
rss_minute=$(rss "$server")
echo "soak: server VmRSS after a minute: $rss_minute kB"

failed=0
for i in $(seq $clients); do
  if ! wait "${cpids[$((i - 1))]}"; then
    echo "soak: client $i failed: $(cat "$tmp/client$i.err")" >&2
    failed=1
  fi
done
rss_end=$(rss "$server")
kill -TERM "$server"
wait "$server" || { echo "soak: the server failed: $(cat "$tmp/server.err")" >&2; exit 1; }
summary=$(sed -n 2p "$tmp/server.out")

num() { sed -n "s/.*\"$1\":\([0-9.e+-]*\).*/\1/p" <<<"$2"; }
p50=$(num p50 "$summary")
p99=$(num p99 "$summary")
tmax=$(sed -n 's/.*"tick_us":{[^}]*"max":\([0-9.e+-]*\).*/\1/p' <<<"$summary")
ticks=$(num ticks "$summary")
stalls=$(num stalls "$summary")
growth=$(awk -v a="$rss_minute" -v b="$rss_end" 'BEGIN { printf "%.1f", (b - a) * 100 / a }')
echo "soak: server VmRSS at the end: $rss_end kB ($growth% since the first minute)"
echo "soak: $ticks ticks; tick time p50 $p50 µs, p99 $p99 µs, max $tmax µs; $stalls stalls"

for i in $(seq $clients); do
  out=$(cat "$tmp/client$i.out")
  nd=$(sed -n 's/.*"nondeterminism":\([0-9]*\).*/\1/p' <<<"$out")
  if ! grep -q '"in_sync":true,"settled":true' <<<"$out" || [ "${nd:-1}" != 0 ]; then
    echo "soak: client $i ended out of step or saw nondeterminism: $out" >&2
    failed=1
  fi
done
echo "soak: clients: $(grep -l '"in_sync":true,"settled":true' "$tmp"/client*.out | wc -l) of $clients in sync and settled"

if awk -v g="$growth" 'BEGIN { exit !(g > 10) }'; then
  echo "soak: FAIL: the server's memory grew by $growth% after the first minute (limit 10%)" >&2
  failed=1
fi
if [ "$scene" = arena ] && awk -v p="$p99" 'BEGIN { exit !(p > 2000) }'; then
  echo "soak: FAIL: tick time p99 $p99 µs on the arena (limit 2000 µs)" >&2
  failed=1
fi
if ((failed)); then
  exit 1
fi
echo "soak: PASS"
