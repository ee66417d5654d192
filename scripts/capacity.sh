#!/usr/bin/env bash
# Sessions per core, measured: for each scene, 1, 2, 4 and 8 `cube server`
# processes on loopback at once, each stepping on one worker (-workers 1, as
# deploy/agones runs it) with 4 players on the average preset
# for S seconds (default 60): 1 full headless `cube client`, which predicts
# the world and checks that it ends in sync, and 3 `cube client -bot`s,
# which keep no world (on a real deployment each player's prediction runs
# on the player's own machine; four predicting clients of the cubes scene
# per server would measure this machine's clients, not its servers).
# Prints each server's tick time (p50 and p99, from its -json summary), its
# CPU time over its wall time (its share of a core, which a loaded machine
# inflates far less than the tick times),
# whether its full client ended in sync and settled and how many bots
# joined and played, then one line per run with the worst p99. Fails when
# a server's tick p99 exceeds a tick (15625 µs: a server slower than that
# falls behind its clients), its full client ends out of sync, or a bot
# fails or never joins: the test command runs it short (scripts/test.sh);
# the long run is the benchmark behind docs/performance.md's table. The
# players run on the same cores as the servers (niced), so the figures
# bound a server's cost from above.
#
#   scripts/capacity.sh [SECONDS]      SERVERS="1 2" SCENES=arena scripts/capacity.sh 5
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
servers_list=${SERVERS:-1 2 4 8}
scenes=${SCENES:-arena cubes}
clients=4 # players a server: 1 full client, the rest bots
bots=$((clients - 1))
limit=15625
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds < 1 || seconds > 3600)); then
  echo "usage: scripts/capacity.sh [SECONDS], 1 to 3600" >&2
  exit 2
fi
for n in $servers_list; do
  if ! [[ $n =~ ^[0-9]+$ ]] || ((n < 1 || n > 16)); then
    echo "capacity: SERVERS holds $n: want numbers from 1 to 16" >&2
    exit 2
  fi
done

tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
go build -o "$tmp/cube" ./cmd/cube

num() { sed -n "s/.*\"$1\":\([0-9.e+-]*\).*/\1/p" <<<"$2" | head -1; }
echo "capacity: $(nproc) cores, $clients players a server (1 full client, $bots bots) on the average preset, $seconds s; load: $(uptime)"
echo "| scene | servers | server | tick p50 µs | tick p99 µs | server CPU, % of a core | full client in sync | bots played |"
echo "|---|---|---|---|---|---|---|---|"
failed=0
summaries=()
for scene in $scenes; do
  for n in $servers_list; do
    run="$tmp/$scene-$n"
    mkdir -p "$run"
    spids=()
    started=$(date +%s.%N)
    for s in $(seq "$n"); do
      "$tmp/cube" server -listen 127.0.0.1:0 -scene "$scene" -max-players $clients -workers 1 -json >"$run/server$s.out" 2>"$run/server$s.err" &
      spids+=($!)
      pids+=($!)
    done
    cpids=()
    for s in $(seq "$n"); do
      for _ in $(seq 100); do
        [ -s "$run/server$s.out" ] && break
        sleep 0.1
      done
      read -r word addr _ pin <"$run/server$s.out" || true
      if [ "${word:-}" != listening ]; then
        echo "capacity: server $s did not start: $(cat "$run/server$s.err")" >&2
        exit 1
      fi
      for c in $(seq $clients); do
        # Player 1 is the full client; the others are bots.
        bot=()
        ((c == 1)) || bot=(-bot)
        nice -n 10 "$tmp/cube" client "${bot[@]}" -connect "$addr" -pin "$pin" -scene "$scene" -max-players $clients -preset average \
          -seconds "$seconds" -seed "$c" -json >"$run/client$s-$c.out" 2>"$run/client$s-$c.err" &
        cpids+=($!)
        pids+=($!)
      done
    done
    for p in "${cpids[@]}"; do wait "$p" || true; done
    worst=0
    insync_all=0
    bots_all=0
    for s in $(seq "$n"); do
      # The server's CPU time (user + system, /proc/PID/stat fields 14
      # and 15) over its wall time: its share of a core, which the
      # scheduler's delays on a loaded machine do not inflate as they do
      # the tick times.
      cpu=$(awk -v hz="$(getconf CLK_TCK)" -v t0="$started" -v now="$(date +%s.%N)" \
        '{ printf "%.1f", 100 * ($14 + $15) / hz / (now - t0) }' "/proc/${spids[$((s - 1))]}/stat")
      kill -TERM "${spids[$((s - 1))]}"
      wait "${spids[$((s - 1))]}" || { echo "capacity: server $s failed: $(cat "$run/server$s.err")" >&2; exit 1; }
      summary=$(sed -n 2p "$run/server$s.out")
      p50=$(num p50 "$summary")
      p99=$(num p99 "$summary")
      insync=$(grep -c '"in_sync":true,"settled":true' "$run/client$s-1.out" || true)
      played=0
      for c in $(seq 2 $clients); do
        if grep -q '"bot":true.*"joined":true' "$run/client$s-$c.out" 2>/dev/null; then
          played=$((played + 1))
        fi
      done
      insync_all=$((insync_all + insync))
      bots_all=$((bots_all + played))
      echo "| $scene | $n | $s | $p50 | $p99 | $cpu | $([ "$insync" = 1 ] && echo yes || echo NO) | $played of $bots |"
      worst=$(awk -v a="$worst" -v b="$p99" 'BEGIN { print (b > a ? b : a) }')
      if awk -v p="$p99" -v l="$limit" 'BEGIN { exit !(p > l) }'; then
        echo "capacity: FAIL: $scene, $n servers: server $s's tick p99 $p99 µs is over a tick ($limit µs)" >&2
        failed=1
      fi
      if ((insync != 1)); then
        echo "capacity: FAIL: $scene, $n servers: server $s's full client did not end in sync: $(cat "$run/client$s-1.err")" >&2
        failed=1
      fi
      if ((played != bots)); then
        echo "capacity: FAIL: $scene, $n servers: server $s has $played of $bots bots that joined and played: $(cat "$run"/client"$s"-[2-9].err)" >&2
        failed=1
      fi
    done
    summaries+=("capacity: $scene, $n servers on $(nproc) cores: worst tick p99 $worst µs, $insync_all of $n full clients in sync, $bots_all of $((n * bots)) bots played")
  done
done
printf '%s\n' "${summaries[@]}"
echo "capacity: load at the end: $(uptime)"
if ((failed)); then
  exit 1
fi
echo "capacity: PASS"
