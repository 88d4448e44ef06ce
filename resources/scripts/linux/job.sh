#!/bin/sh
# VirtBench detached jobs. A job runs in its own session (setsid), detached from the SSH
# connection that started it, with its output in files, so a dropped connection does not end it:
# the engine reconnects and waits again.
#
#   job.sh start DIR          reads the job script on stdin, starts it detached in DIR
#   job.sh wait DIR NONCE SECONDS
#                             waits until the job ends (or SECONDS after its start, then stops it),
#                             prints its stdout, then a last line "NONCE <status>"; its stderr goes
#                             to stderr. <status> is the exit code, "lost" when the job vanished
#                             without one, or "timeout" when this wait stopped it.
#   job.sh run DIR NONCE SECONDS     start, then wait
#   job.sh follow DIR         prints the job's stdout and stderr as they grow (tail -f, with
#                             "==> DIR/stdout <==" headers) until the job ends
#   job.sh stop DIR GRACE_MS  TERM to the job's process group, KILL after the grace period
#   job.sh sweep ROOT KEEP    removes ROOT/vb-*/ directories of runs other than KEEP whose jobs
#                             have all ended (marked by a .virtbench-run file); prints each removed
#
# DIR holds: cmd.sh (the job), pgid, started (epoch seconds), stdout, stderr, status.
set -u

alive() {
  [ -s "$1/pgid" ] || return 1
  kill -0 "-$(cat "$1/pgid")" 2>/dev/null
}

start() {
  dir=$1
  mkdir -p "$dir" || exit 70
  cat >"$dir/cmd.sh" || exit 70
  rm -f "$dir/status" "$dir/status.tmp" "$dir/pgid"
  date +%s >"$dir/started"
  # The inner shell is the session leader: its pid is the job's process group.
  if command -v setsid >/dev/null 2>&1; then
    (cd "$dir" && exec setsid sh -c 'echo $$ >pgid; sh ./cmd.sh >stdout 2>stderr </dev/null; echo $? >status.tmp; mv status.tmp status' >/dev/null 2>&1 </dev/null &)
  else
    (cd "$dir" && exec nohup sh -c 'echo $$ >pgid; sh ./cmd.sh >stdout 2>stderr </dev/null; echo $? >status.tmp; mv status.tmp status' >/dev/null 2>&1 </dev/null &)
  fi
  # wait (briefly) for the job to name its process group, so a stop right after start finds it
  i=0
  while [ ! -s "$dir/pgid" ] && [ ! -f "$dir/status" ] && [ $i -lt 200 ]; do
    sleep 0.01 2>/dev/null || sleep 1
    i=$((i + 1))
  done
}

stop() {
  dir=$1
  grace=${2:-2000}
  [ -s "$dir/pgid" ] || return 0
  pg=$(cat "$dir/pgid")
  kill -TERM "-$pg" 2>/dev/null || return 0
  waited=0
  while [ "$waited" -lt "$grace" ] && kill -0 "-$pg" 2>/dev/null; do
    sleep 0.05 2>/dev/null || sleep 1
    waited=$((waited + 50))
  done
  kill -KILL "-$pg" 2>/dev/null
  return 0
}

finish() {
  dir=$1 nonce=$2 status=$3
  [ -f "$dir/stdout" ] && cat "$dir/stdout"
  [ -f "$dir/stderr" ] && cat "$dir/stderr" >&2
  printf '\n%s %s\n' "$nonce" "$status"
  exit 0
}

wait_job() {
  dir=$1 nonce=$2 limit=$3
  started=$(cat "$dir/started" 2>/dev/null || date +%s)
  pause=0.01
  n=0
  while :; do
    if [ -f "$dir/status" ]; then finish "$dir" "$nonce" "$(cat "$dir/status")"; fi
    if ! alive "$dir"; then
      # the status is written just after the job's group ends: give it a moment before
      # calling the job lost
      i=0
      while [ $i -lt 40 ]; do
        if [ -f "$dir/status" ]; then finish "$dir" "$nonce" "$(cat "$dir/status")"; fi
        sleep 0.01 2>/dev/null || sleep 1
        i=$((i + 1))
      done
      finish "$dir" "$nonce" lost
    fi
    now=$(date +%s)
    if [ $((now - started)) -ge "$limit" ]; then
      stop "$dir" 2000
      echo timeout >"$dir/status"
      finish "$dir" "$nonce" timeout
    fi
    sleep "$pause" 2>/dev/null || sleep 1
    n=$((n + 1))
    case $n in 20) pause=0.1 ;; 60) pause=0.5 ;; esac
  done
}

follow() {
  dir=$1
  i=0
  while [ ! -f "$dir/stderr" ] && [ ! -f "$dir/status" ] && [ $i -lt 300 ]; do
    sleep 0.01 2>/dev/null || sleep 1
    i=$((i + 1))
  done
  tail -n +1 -f "$dir/stdout" "$dir/stderr" 2>/dev/null &
  t=$!
  # ends with the job, so no tail is left behind when nobody stops it
  while [ ! -f "$dir/status" ] && alive "$dir"; do
    sleep 0.2 2>/dev/null || sleep 1
  done
  sleep 0.2 2>/dev/null || sleep 1
  kill "$t" 2>/dev/null
  exit 0
}

sweep() {
  root=$1 keep=$2
  for marker in "$root"/vb-*/.virtbench-run; do
    [ -f "$marker" ] || continue
    run=$(dirname "$marker")
    [ "$(basename "$run")" = "vb-$keep" ] && continue
    busy=0
    for job in "$run"/.jobs/*/; do
      [ -d "$job" ] || continue
      if [ ! -f "$job/status" ] && alive "$job"; then busy=1; fi
    done
    [ "$busy" = 1 ] && continue
    rm -rf "$run" && echo "$run"
  done
  exit 0
}

cmd=${1:-}
case $cmd in
  start) start "$2" ;;
  wait) wait_job "$2" "$3" "$4" ;;
  run) start "$2" && wait_job "$2" "$3" "$4" ;;
  follow) follow "$2" ;;
  stop) stop "$2" "${3:-2000}" ;;
  sweep) sweep "$2" "$3" ;;
  *) echo "usage: job.sh start|wait|run|follow|stop|sweep ..." >&2; exit 64 ;;
esac
