#!/bin/sh
# VirtBench block monitor: prints /proc/diskstats every INTERVAL_SECONDS until it is stopped
# (TERM, INT or HUP) or MAX_SECONDS have passed, a safety stop so it never outlives a lost engine.
#
#   sh diskstats.sh INTERVAL_SECONDS MAX_SECONDS
#
# Output (parsed by src/main/engine/monitor/diskstats.ts; described in docs/monitor.md):
#   virtbench-diskstats 1 interval=<seconds asked> sleep=<seconds slept> max=<seconds>
#   snapshot <first field of /proc/uptime: seconds since boot, 1/100 s resolution>
#   <the lines of /proc/diskstats, unchanged>
#   end
#   ... one snapshot...end block per interval, one more when stopped ...
#   stop signal|max
# A block cut short (killed while printing) has no `end` line; readers drop it.
#
# Needs no root: /proc/diskstats and /proc/uptime are world-readable. Each interval costs one
# `cat` and one `sleep`; the uptime is read with the shell's own `read`.
LC_ALL=C
export LC_ALL

usage() {
  printf 'diskstats.sh: %s\nusage: sh diskstats.sh INTERVAL_SECONDS MAX_SECONDS (for example: sh diskstats.sh 1 3600)\n' "$1" >&2
  exit 2
}

[ $# -eq 2 ] || usage "expected 2 arguments, got $#"
interval=$1
max=$2
case $interval in
  '' | *[!0-9.]* | .* | *. | *.*.*) usage "INTERVAL_SECONDS must be a number of seconds like 1 or 0.5, got '$interval'" ;;
  *[1-9]*) ;;
  *) usage "INTERVAL_SECONDS must be more than 0, got '$interval'" ;;
esac
case $max in
  '' | *[!0-9]*) usage "MAX_SECONDS must be a whole number of seconds, got '$max'" ;;
  *[1-9]*) ;;
  *) usage "MAX_SECONDS must be more than 0, got '$max'" ;;
esac

for f in /proc/diskstats /proc/uptime; do
  if [ ! -r "$f" ]; then
    printf 'diskstats.sh: cannot read %s on this machine (not Linux, or hidden by a container); no block-layer figures can be taken here\n' "$f" >&2
    exit 3
  fi
done

# a BusyBox sleep built without fractional support refuses 0.01; whole seconds then
pause=$interval
case $interval in
  *.*) sleep 0.01 2>/dev/null || pause=1 ;;
esac

up=
centis=0
snapshot() {
  read -r up _ </proc/uptime || return 1
  # /proc/uptime is "seconds.hundredths"; in hundredths for the shell's integer arithmetic
  # (without a leading 0 on the fraction, which the shell would read as octal)
  case $up in
    *.*) frac=${up#*.} && frac=${frac#0} && centis=$((${up%.*} * 100 + ${frac:-0})) ;;
    *) centis=$((up * 100)) ;;
  esac
  printf 'snapshot %s\n' "$up" || return 1
  cat /proc/diskstats || return 1
  printf 'end\n'
}

sleeper=
finish() {
  [ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null
  snapshot
  printf 'stop %s\n' "$1"
  exit 0
}
trap 'finish signal' TERM INT HUP

printf 'virtbench-diskstats 1 interval=%s sleep=%s max=%s\n' "$interval" "$pause" "$max" || exit 1
snapshot || exit 1
stop_at=$((centis + max * 100))
while :; do
  # sleep in the background and wait for it: a trapped signal interrupts `wait` at once, where a
  # foreground sleep would hold the trap until it ends
  sleep "$pause" &
  sleeper=$!
  wait "$sleeper"
  sleeper=
  snapshot || exit 1
  if [ "$centis" -ge "$stop_at" ]; then
    printf 'stop max\n'
    exit 0
  fi
done
