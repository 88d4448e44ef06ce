#!/bin/sh
# VirtBench's checks before a run, in one command: preflight.sh and environment.sh side by side,
# while the idle gate samples the machine around both (not after them), so the whole costs one
# round trip and max(idle seconds, the checks) instead of their sum.
#
#   sh checks.sh [--port PORT]... IDLE_SECONDS N [PREFLIGHT ARGS (N of them)...] [ENVIRONMENT ARGS...]
#
# Output: each part between a line RS"section NAME STATUS" (RS is the ASCII record separator, so
# no output of the parts can look like it; STATUS is the part's exit code) and the next such line:
#   preflight     preflight.sh's lines, with the idle facts put before its `end 1`
#   preflight-err preflight.sh's stderr
#   environment   environment.sh's lines
#   environment-err environment.sh's stderr
#   ports         one line per --port: port<TAB>PORT<TAB>listening|free|unknown[<TAB>PROGRAM]: is a
#                 TCP socket listening on PORT (any address, IPv4 or IPv6) already, from
#                 /proc/net/tcp and tcp6; PROGRAM is what `ss -ltnp` names when it may see it (a
#                 process of another user stays unnamed). A server VirtBench starts there (iperf3
#                 -s -p PORT) would fail with "Address already in use". No --port: no section.
# The idle facts (idle.seconds, idle.load, idle.busy_pct, idle.iowait_pct, idle.steal_pct) are the
# ones preflight.sh prints with --idle-seconds, read from /proc/stat before both parts start and
# after both have ended and IDLE_SECONDS have passed. The CPU time the two parts took themselves
# (their `times`) is not counted as busy: the gate asks whether other work is there, and
# VirtBench's own checks are not other work. IDLE_SECONDS 0: no idle facts.
LC_ALL=C
export LC_ALL
here=$(dirname "$0")
RS=$(printf '\036')

ports=
while [ "$1" = --port ] && [ $# -ge 2 ]; do
  case $2 in '' | *[!0-9]*) ;; *) ports="$ports $2" ;; esac
  shift 2
done

idle=${1:-0}
npre=${2:-0}
shift 2
case $idle in '' | *[!0-9]*) idle=0 ;; esac
case $npre in '' | *[!0-9]*) npre=0 ;; esac

# Runs script $3 with arguments $1 to $2 (0-based, end excluded) of the rest: the arguments are
# rotated through "$@" (builtins only), so none is quoted, parsed or passed through a process.
part() {
  from=$1 to=$2 script=$3
  shift 3
  i=0 n=$#
  while [ $i -lt $n ]; do
    a=$1
    shift
    [ $i -ge "$from" ] && [ $i -lt "$to" ] && set -- "$@" "$a"
    i=$((i + 1))
  done
  exec sh "$here/$script" "$@"
}

idle_facts() {
  [ "$idle" -gt 0 ] || return 0
  s2=$(sed -n 's/^cpu  *//p' /proc/stat 2>/dev/null)
  printf 'idle.seconds\t%s\n' "$idle"
  if [ -r /proc/loadavg ]; then
    read -r l1 l5 l15 _rest </proc/loadavg
    printf 'idle.load\t%s\t%s\t%s\n' "$l1" "$l5" "$l15"
  fi
  [ -n "$s1" ] && [ -n "$s2" ] || return 0
  # the parts' own CPU time, in seconds: the second line of `times` (children), "0m0.040s 0m0.012s"
  own=$(times | sed -n '2p')
  hz=$(getconf CLK_TCK 2>/dev/null)
  case $hz in '' | *[!0-9]*) hz=100 ;; esac
  # as preflight.sh: busy is neither idle, nor waiting for I/O, nor stolen; less our own ticks
  awk -v a="$s1" -v b="$s2" -v own="$own" -v hz="$hz" 'BEGIN {
    n = split(a, x, " "); split(b, y, " ")
    if (n < 4) exit
    if (n > 8) n = 8
    for (i = 1; i <= n; i++) { d[i] = y[i] - x[i]; total += d[i] }
    if (total <= 0) exit
    ours = 0
    k = split(own, t, " ")
    for (i = 1; i <= k; i++) if (match(t[i], /^[0-9]+m[0-9.]+s$/)) {
      split(t[i], ms, "m"); ours += (ms[1] * 60 + ms[2] + 0) * hz
    }
    io = (n >= 5) ? d[5] : 0
    st = (n >= 8) ? d[8] : 0
    busy = total - d[4] - io - st - ours
    if (busy < 0) busy = 0
    printf "idle.busy_pct\t%.1f\n", 100 * busy / total
    if (n >= 5) printf "idle.iowait_pct\t%.1f\n", 100 * io / total
    if (n >= 8) printf "idle.steal_pct\t%.1f\n", 100 * st / total
  }'
}

# port_facts: one line per port in $ports (see the header).
port_facts() {
  for port in $ports; do
    hex=$(printf '%04X' "$port")
    state=$(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v hex="$hex" '
      NR > 0 && $2 ~ /:/ { seen = 1; n = split($2, a, ":"); if (a[n] == hex && $4 == "0A") found = 1 }
      END { print found ? "listening" : seen ? "free" : "unknown" }')
    program=
    if [ "$state" = listening ] && command -v ss >/dev/null 2>&1; then
      program=$(ss -Hltnp "sport = :$port" 2>/dev/null | sed -n 's/.*users:(("\([^"]*\)",pid=\([0-9]*\).*/\1 (pid \2)/p' | sed -n '1p')
    fi
    if [ -n "$program" ]; then
      printf 'port\t%s\t%s\t%s\n' "$port" "$state" "$program"
    else
      printf 'port\t%s\t%s\n' "$port" "$state"
    fi
  done
}

# Prints the parts, preflight's with exit code $1 and the environment's with $2.
report() {
  printf '%ssection preflight %s\n' "$RS" "$1"
  # the idle facts go inside preflight's own frame, before its `end 1` (a cut output keeps no end)
  awk '$0 == "end\t1" || $0 == "end 1" { exit } { print }' "$tmp/pre" 2>/dev/null
  [ -n "$cut" ] || idle_facts
  grep -qx 'end.1' "$tmp/pre" 2>/dev/null && printf 'end\t1\n'
  printf '%ssection preflight-err %s\n' "$RS" "$1"
  cat "$tmp/pre-err" 2>/dev/null
  printf '%ssection environment %s\n' "$RS" "$2"
  cat "$tmp/env" 2>/dev/null
  printf '%ssection environment-err %s\n' "$RS" "$2"
  cat "$tmp/env-err" 2>/dev/null
  if [ -n "$ports" ]; then
    printf '%ssection ports 0\n' "$RS"
    cat "$tmp/ports" 2>/dev/null
  fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vb-checks.XXXXXX" 2>/dev/null) || {
  tmp="${TMPDIR:-/tmp}/vb-checks.$$"
  mkdir -m 700 "$tmp" || exit 70
}
trap 'rm -rf "$tmp"' EXIT
# stopped (a time limit, a cancel): the parts are stopped with it; what they printed is kept
cut= prc= erc=
trap 'cut=1; report "${prc:-143}" "${erc:-143}"; exit 143' TERM INT HUP

s1=
[ "$idle" -gt 0 ] && s1=$(sed -n 's/^cpu  *//p' /proc/stat 2>/dev/null)
[ "$idle" -gt 0 ] && { sleep "$idle" & sleeper=$!; }
(part 0 "$npre" preflight.sh "$@") >"$tmp/pre" 2>"$tmp/pre-err" </dev/null &
p=$!
(part "$npre" $# environment.sh "$@") >"$tmp/env" 2>"$tmp/env-err" </dev/null &
e=$!
[ -n "$ports" ] && port_facts >"$tmp/ports" 2>/dev/null
wait "$p"
prc=$?
wait "$e"
erc=$?
[ "$idle" -gt 0 ] && wait "$sleeper"

report "$prc" "$erc"
exit 0
