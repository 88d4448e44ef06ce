#!/bin/sh
# VirtBench detached jobs. A job runs in its own session (setsid), detached from the SSH
# connection that started it, with its output in files, so a dropped connection does not end it:
# the engine reconnects and waits again.
#
#   job.sh start DIR SECONDS  reads the job script on stdin and starts it detached in DIR; the job
#                             stops itself SECONDS after its start even when no wait is running
#                             (a watchdog in its own process group)
#   job.sh wait DIR NONCE SECONDS KEEP
#                             waits until the job ends (or SECONDS after its start, then stops it),
#                             then prints one status line first, whatever the output:
#                               NONCE <status> <stdout bytes> <stderr bytes>[ <free KiB> <mount point>]
#                             then the job's stdout; its stderr goes to stderr, followed by one
#                             line "NONCE+<before>|<after>|<times>": the job's CPU counters
#                             (started's two parts and status's lines after the first, below,
#                             each part's lines joined by ";"). An output longer than KEEP bytes is sent as its
#                             first and its last KEEP/2 bytes (the line gives the full sizes).
#                             <status> is the exit code, "timeout" when the
#                             job was stopped at its limit, "lost" when it vanished without a
#                             status, or "unwritable" / "unwritable:<exit code or timeout>" when its
#                             status could not be written (a full disk). The free space of DIR's
#                             file system follows every status but 0.
#   job.sh run DIR NONCE SECONDS KEEP     start, then wait: the job holds the write end of a FIFO
#                             (`ended`) for as long as it lives, and the wait is the shell's own
#                             `read` on it, which starts nothing and polls nothing while the job
#                             measures and returns the moment the job ends, however it ends; the
#                             job's watchdog stops it at SECONDS
#   job.sh serve              `run` after `run`, each asked for on stdin (see serve below)
#   job.sh follow DIR         prints the job's stdout and stderr as they grow (tail -f, with
#                             "==> DIR/stdout <==" headers) until the job ends
#   job.sh stop DIR GRACE_MS  TERM to the job's process group, KILL after the grace period
#   job.sh stopall RUN GRACE_MS
#                             stops every job of RUN/.jobs/ that still runs (a run resumed after
#                             VirtBench itself was killed); prints each stopped job's folder
#   job.sh sweep ROOT KEEP    removes ROOT/vb-*/ directories of runs other than KEEP whose jobs
#                             have all ended (marked by a .virtbench-run file) and whose marker
#                             is older than FRESH_MINUTES; prints each removed
#
# DIR holds: cmd.sh (the job), pgid, started, stdout, stderr, status, ended (a FIFO). `started`'s
# time of change is the job's start; it holds the machine's CPU counters just before a `run` starts
# the job, then a line "after", then the counters at its end. `status` holds the exit code or
# "timeout", then the job's CPU time (its shell's `times`). Each job file is a new inode on the
# target's disk, which costs (ext4 without a journal scans past recently deleted inodes for each),
# hence these two files with two parts each rather than four (cpu-before, cpu-after and times:
# job.sh before 2026-11-27, still read). The engine makes DIR, its FIFO and its files but `status`
# ahead (empty), with the run's other jobs' (one command for all: no mkdir, mkfifo or new file per
# job but `status`, whose being there means the job ended); job.sh makes what is not there. On
# a full disk, where even those few bytes cannot be written, the status is kept in the name of an
# empty file instead, status-<code>, which needs no data block.
set -u
# the CPU counters a `run` took just before its job, their lines joined by ";" ("" for a wait, which
# reads them from `started`)
before=

self=$0
case $self in /*) ;; *) self=$(pwd)/$self ;; esac

alive() {
  pg=
  read -r pg <"$1/pgid" 2>/dev/null
  [ -n "$pg" ] && kill -0 "-$pg" 2>/dev/null
}

# Sets $st to the job's status ("" while it has none).
read_status() {
  st=
  if [ -f "$1/status" ]; then
    read -r st <"$1/status" 2>/dev/null
    case $st in
      timeout | [0-9] | [0-9][0-9] | [0-9][0-9][0-9]) return 0 ;;
    esac
    # an empty one while the job lives is being written (record_status writes it in place);
    # one that is empty or garbled after that was written on a full disk
    if [ -z "$st" ] && alive "$1"; then
      st=
      return 0
    fi
    st=unwritable
    return 0
  fi
  for f in "$1"/status-*; do
    [ -e "$f" ] || continue
    st=unwritable:${f##*/status-}
    return 0
  done
}

# Records $2 (an exit code or "timeout") as the job's status, unless it has one.
record_status() {
  read_status "$1"
  [ -n "$st" ] && return 0
  # in place: one write of a few bytes (a reader that meets the file empty while the job lives
  # reads it as no status yet), no `mv` started
  { echo "$2" >"$1/status"; } 2>/dev/null && return 0
  rm -f "$1/status" 2>/dev/null
  : >"$1/status-$2" 2>/dev/null
  return 0
}

# "<free KiB> <mount point>" of the file system holding $1, or "- -" when df cannot tell.
space() {
  df -Pk "$1" 2>/dev/null | {
    read -r _ || exit 1
    read -r _ _ _ free _ mount || exit 1
    echo "$free $mount"
  } || echo '- -'
}

# Sends file $1 of $2 bytes whole, or its first and last $3/2 bytes when it is longer than $3.
send() {
  if [ "$2" -le "$3" ]; then
    [ "$2" -eq 0 ] || cat "$1"
  else
    head -c $(($3 / 2)) "$1"
    tail -c $(($3 / 2)) "$1"
  fi
}

# `timeout N` as this system writes it (GNU and new BusyBox: timeout N; old BusyBox: timeout -t N),
# or nothing without one. Only a wait that reattached needs it (`run` never does).
timeout_word() {
  if timeout 1 true 2>/dev/null; then
    tw='timeout'
  elif timeout -t 1 true 2>/dev/null; then
    tw='timeout -t'
  else
    tw=
  fi
}

# The job itself (`sh -c "$job_main" job-main LIMIT DIR LATE JOB_SH`), in its own session with DIR
# as its working directory: a few lines of its own rather than this file, so that the step's
# script, which it runs in a subshell of its own (`.`: no second sh started), sees none of this
# file's functions and variables, as a script started by `sh ./cmd.sh` would (its `$$` is the job's
# shell's, as in any subshell).
#  - it names its process group first (a stop right after the start finds it; appended, as `run`
#    may write the same number at the same time)
#  - the watchdog, in its process group, sleeps until LIMIT + LATE and then runs `job.sh expire`
#  - fd 8, when there, is the write end of `ended` a `run` holds this job's life by: only this
#    shell keeps it (the subshells close theirs)
#  - at the end: the status unless the watchdog wrote one (in place: a few bytes; on a full disk in
#    the name of an empty file), followed by the CPU time the job used (`times`, its children's
#    line, for the engine's contamination check), a byte to wake a wait that reattached;
#    then the watchdog and whatever the job left running in its process group are ended, and this
#    shell ends of itself, with status 0 (a shell waiting for it would print "Terminated" otherwise)
# shellcheck disable=SC2016 # expanded by the job's own sh, not here
job_main='echo $$ >>pgid && [ -s pgid ] || exit 75
(exec 8>&-; sleep "$(($1 + $3))" 2>/dev/null || exit 0; exec sh "$4" expire . "$$") &
(set --; . ./cmd.sh) >stdout 2>stderr </dev/null 8>&-
rc=$?
set -- status-*
if [ ! -s status ] && [ ! -e "$1" ]; then
  { echo "$rc" && times; } >status 2>/dev/null || { rm -f status; : >"status-$rc"; } 2>/dev/null
else
  times >>status 2>/dev/null
fi
[ -p ended ] && printf x 1<>ended 2>/dev/null
trap "" TERM
kill -TERM "-$$" 2>/dev/null
exit 0'

# The watchdog at the job's limit (in DIR, $1; the job's process group $2): the status "timeout"
# (unless the job wrote its own), a wait woken, TERM to the group, KILL after 2 s. It stops the job
# at its limit for a `run`, whose wait does not; a second after it for a `start`, so that a wait,
# which stops the job at the limit, comes first.
expire() {
  trap '' TERM
  record_status "$1" timeout
  wake "$1"
  kill -TERM "-$2" 2>/dev/null
  sleep 2 2>/dev/null || sleep 1
  kill -KILL "-$2" 2>/dev/null
}

# Wakes a wait that reattached, blocked reading DIR/ended (a FIFO it made and holds open): one
# byte, written through a read-write open, which never blocks, even when no wait is there.
wake() {
  [ -p "$1/ended" ] && printf x 1<>"$1/ended" 2>/dev/null
  return 0
}

cannot_start() {
  at=$1
  while [ ! -d "$at" ] && [ "$at" != / ] && [ "$at" != . ]; do at=$(dirname "$at"); done
  set -- "$1" "$2" "$(space "$at")"
  echo "job.sh: cannot start the job in $1: $2 (${3%% *} KiB free on ${3#* })" >&2
  exit 70
}

# Copies stdin to stdout line by line (a last line without a newline gets one); fails when a write does.
copy_stdin() {
  while IFS= read -r line || [ -n "$line" ]; do
    printf '%s\n' "$line" || return 1
  done
}

# Writes the job's files in DIR: the script from stdin, the start time (the time of change of
# `started`: no process asked for it), and no status of an earlier attempt.
prepare() {
  dir=$1
  # the script is a few lines of text: copied by the shell itself, not by a cat
  # the engine makes the folders of a run's jobs ahead, all in one command: then no mkdir here
  # (from `serve`: the script came with the request, in $body)
  { { [ -d "$dir" ] || mkdir -p "$dir"; } && if [ -n "${served:-}" ]; then printf '%s' "$body" >"$dir/cmd.sh"; else copy_stdin >"$dir/cmd.sh"; fi && : >"$dir/started"; } 2>/dev/null ||
    cannot_start "$dir" 'its files cannot be written'
  # a job folder used before (a retry): what its last attempt left
  # (a FIFO alone is no leftover, nor are empty files: the engine makes them ahead, with the folder)
  # (`started` was emptied above, with the counters of that attempt)
  for f in "$dir/status" "$dir"/status-* "$dir"/status.*.tmp "$dir/cpu-before" "$dir/cpu-after" "$dir/times" "$dir/pgid"; do
    [ -e "$f" ] || continue
    [ "$f" = "$dir/pgid" ] && [ ! -s "$f" ] && continue
    rm -f "$dir/status" "$dir"/status-* "$dir"/status.*.tmp "$dir/pgid" "$dir/ended" "$dir/cpu-before" "$dir/cpu-after" "$dir/times"
    break
  done
  # the run is alive: its marker's time of change is its last job's start (builtins: nothing
  # started), so another run's sweep leaves its folder alone between two jobs
  marker=${dir%/.jobs/*}/.virtbench-run
  if [ -f "$marker" ]; then { read -r owner <"$marker" && printf '%s\n' "$owner" >"$marker"; } 2>/dev/null; fi
  # the job is the session leader (its pid is its process group)
  find_detach
}

# Sets $detach to what starts the job in a session of its own (once: a server looks before its first request).
find_detach() {
  [ -n "${detach:-}" ] && return 0
  detach=setsid
  command -v setsid >/dev/null 2>&1 || detach=nohup
}

# Starts the job in its own session; $launched is its process id (setsid runs it in place: a
# background child is no process group leader). The subshell that starts it ends at once, so the
# job is nobody's child here (no descendant of the SSH session that a dropped connection, or
# whoever ends that session's processes, ends with it), and a job that dies leaves no zombie here.
# (Not waiting for that subshell, with the number written by it, measured no faster: issue 22.)
launch() {
  # its folder is on its command line only so that ps shows whose job it is
  launched=$(cd "$1" || exit 70; $detach sh -c "$job_main" job-main "$2" "$1" "${3:-1}" "$self" >/dev/null 2>&1 </dev/null & echo $!)
}

# Starts the job and returns at once, once the job has named its process group (so a stop right
# after start finds it).
start_detached() {
  dir=$1 limit=$2
  launch "$dir" "$limit"
  i=0
  while [ ! -s "$dir/pgid" ] && kill -0 "$launched" 2>/dev/null && [ $i -lt 3000 ]; do
    sleep 0.01 2>/dev/null || sleep 1
    i=$((i + 1))
  done
  read_status "$dir"
  [ -s "$dir/pgid" ] || [ -n "$st" ] || cannot_start "$dir" 'it could not write its process group'
}

start() {
  prepare "$1"
  start_detached "$1" "$2"
}

# Starts the job detached (nobody's child here, as `start`) and waits for its end without starting
# or polling anything: the job holds the write end of DIR/ended open for as long as it lives, and
# this shell reads the FIFO with its own `read`, which returns when the job ends however it ends
# (the kernel closes a dead process's files; the job also writes a byte at its end). Without
# mkfifo it waits as a reattached wait does.
run_job() {
  dir=$1 nonce=$2 limit=$3 keep=$4
  prepare "$dir"
  # made ahead with the job's folder by the engine, as a run's other jobs' (one command for all)
  [ -p "$dir/ended" ] || mkfifo "$dir/ended" 2>/dev/null
  if [ ! -p "$dir/ended" ]; then
    start_detached "$dir" "$limit"
    wait_job "$dir" "$nonce" "$limit" "$keep"
  fi
  # read-write: never blocks; the job inherits it and is then the FIFO's writer
  exec 8<>"$dir/ended"
  # into `started`, which prepare made: no new file (and its time of change is now the start)
  snap=
  snapshot >"$dir/started" 2>/dev/null
  before=$snap
  # nobody but the job's own watchdog stops it at its limit: at the limit, not a second later
  launch "$dir" "$limit" 0
  # the same number the job writes first thing (a builtin: nothing started), so that a stop right
  # after the start finds it; both append (the file is new: prepare removed an earlier attempt's),
  # since a truncation here between the job's write and its check that the file is not empty would
  # make the job give up as if it could not write it (seen once in 1,000 jobs under load); readers
  # take the first line
  [ -s "$dir/pgid" ] || echo "$launched" >>"$dir/pgid" 2>/dev/null
  # read-only, then this shell lets go of its write end: the job is the only writer left
  exec 7<"$dir/ended"
  exec 8>&-
  while read -r _ <&7; do :; done
  exec 7<&-
  # the job's process group once more (a builtin): the job ends its group as it ends, but a
  # watchdog it started a moment before may still have been forking its sleep then, and that sleep
  # would stay until the job's limit
  kill -TERM "-$launched" 2>/dev/null
  read_status "$dir"
  [ -n "$st" ] && finish "$dir" "$nonce" "$st" "$keep"
  # no status: it could not start, or it was killed ("lost"): the rest of its group goes with it
  # in a moment (only this, which is no measurement, polls)
  [ -s "$dir/pgid" ] || cannot_start "$dir" 'it could not write its process group'
  i=0
  while [ $i -lt 40 ] && alive "$dir"; do
    sleep 0.01 2>/dev/null || sleep 1
    i=$((i + 1))
  done
  wait_job "$dir" "$nonce" "$limit" "$keep"
}

# Serves `run` requests on stdin, one after another, for as long as stdin is open: the engine keeps
# one of these per target while a run lasts, so a job costs no SSH command of its own and no start
# of this file (issue 22). A request is six lines: `run`, DIR, NONCE, SECONDS, KEEP, and the number
# of lines of the job's script, which follow. Each is answered as `run` answers, in a subshell of
# this shell (nothing started), and then ended on both stdout and stderr by a line
# "\nNONCE.<exit code of the run>\n" (the nonce is the request's own, so no output can forge it).
# Anything else on stdin ends the server (exit 64).
serve() {
  served=1
  find_detach
  while IFS= read -r verb; do
    IFS= read -r dir && IFS= read -r nonce && IFS= read -r limit && IFS= read -r keep && IFS= read -r lines || exit 64
    [ "$verb" = run ] && [ -n "$lines" ] && [ -n "$limit" ] && [ -n "$keep" ] || exit 64
    case $lines$limit$keep in *[!0-9]*) exit 64 ;; esac
    body= i=0
    while [ "$i" -lt "$lines" ] && IFS= read -r line; do
      body="$body$line
"
      i=$((i + 1))
    done
    [ "$i" -eq "$lines" ] || exit 64
    (run_job "$dir" "$nonce" "$limit" "$keep") </dev/null
    rc=$?
    printf '\n%s.%s\n' "$nonce" "$rc"
    printf '\n%s.%s\n' "$nonce" "$rc" >&2
  done
  exit 0
}

stop() {
  dir=$1
  grace=${2:-2000}
  pg=
  read -r pg <"$dir/pgid" 2>/dev/null
  [ -n "$pg" ] || return 0
  kill -TERM "-$pg" 2>/dev/null || return 0
  waited=0
  while [ "$waited" -lt "$grace" ] && kill -0 "-$pg" 2>/dev/null; do
    sleep 0.05 2>/dev/null || sleep 1
    waited=$((waited + 50))
  done
  kill -KILL "-$pg" 2>/dev/null
  return 0
}

# Prints the machine's CPU counters: the `cpu` line of /proc/stat, the load, the online CPUs
# (counted from the ranges in /sys/devices/system/cpu/online, "0-3,8"); the engine's contamination
# check reads them around the job. Also sets $snap to the same lines joined by ";", so that
# `finish` sends them without reading them back (dash's `read` takes a byte per system call).
# Builtins only, and only short lines read. Called with its output redirected, in this shell.
snapshot() {
  snap=
  read -r l </proc/stat && echo "$l" && snap=$l
  read -r l </proc/loadavg && echo "$l" && snap="$snap${snap:+;}$l"
  if read -r l </sys/devices/system/cpu/online; then
    n=0 ifs=$IFS
    IFS=,
    for r in $l; do
      case $r in *-*) n=$((n + ${r#*-} - ${r%-*} + 1)) ;; *) n=$((n + 1)) ;; esac
    done
    IFS=$ifs
    [ "$n" -gt 0 ] && echo "$n" && snap="$snap${snap:+;}$n"
  fi
  return 0
}

# Sets $c to the lines of file $1 joined by ";" (nothing when it is not there). Builtins only.
joined() {
  c=
  [ -f "$1" ] || return 0
  while IFS= read -r l || [ -n "$l" ]; do
    c="$c${c:+;}$l"
  done <"$1"
}

# Sets $cb and $ca to the CPU counters in DIR/started before and after its line "after" (each
# part's lines joined by ";"), and $tm to the job's CPU time, the lines of DIR/status after its
# first; from cpu-before, cpu-after and times when those are there (job.sh before 2026-11-27).
# Builtins only.
counters_of() {
  cb= ca= tm= part=cb
  if [ -f "$1/started" ]; then
    while IFS= read -r l || [ -n "$l" ]; do
      if [ "$l" = after ]; then part=ca; continue; fi
      if [ $part = cb ]; then cb="$cb${cb:+;}$l"; else ca="$ca${ca:+;}$l"; fi
    done <"$1/started"
  fi
  times_of "$1"
  [ -n "$cb" ] || { joined "$1/cpu-before" && cb=$c; }
  [ -n "$ca" ] || { joined "$1/cpu-after" && ca=$c; }
}

# Sets $tm to the lines of DIR/status after its first, joined by ";" (the job's `times`), or to
# DIR/times's (job.sh before 2026-11-27). Builtins only.
times_of() {
  tm= n=0
  if [ -f "$1/status" ]; then
    while IFS= read -r l || [ -n "$l" ]; do
      n=$((n + 1))
      [ $n -gt 1 ] && tm="$tm${tm:+;}$l"
    done <"$1/status"
  fi
  [ -n "$tm" ] || { joined "$1/times" && tm=$c; }
}

finish() {
  dir=$1 nonce=$2 status=$3 keep=$4
  if [ -n "$before" ]; then
    # a `run`: the counters before are in hand, and nothing has taken those at the end yet
    cb=$before ca=
    times_of "$dir"
  else
    # a wait: what a `run` or an earlier wait wrote
    counters_of "$dir"
  fi
  # the counters at the job's end (a wait that reattached: when it found the end), after the
  # ones before in `started` (no new file); a later wait sends the same
  if [ -z "$ca" ]; then
    snap=
    { echo after && snapshot; } >>"$dir/started" 2>/dev/null
    ca=$snap
  fi
  # both sizes from one wc ("N1 stdout N2 stderr N total"); 0 for a file that is not there or
  # is empty (a step that printed nothing starts no wc)
  out=0 err=0
  if [ -s "$dir/stdout" ] || [ -s "$dir/stderr" ]; then
    set -- $(cd "$dir" 2>/dev/null && wc -c stdout stderr 2>/dev/null)
    while [ $# -ge 2 ]; do
      case $2 in stdout) out=$1 ;; stderr) err=$1 ;; esac
      shift 2
    done
  fi
  line="$nonce $status $out $err"
  [ "$status" = 0 ] || line="$line $(space "$dir")"
  printf '%s\n' "$line"
  send "$dir/stdout" "$out" "$keep"
  send "$dir/stderr" "$err" "$keep" >&2
  # last on stderr: the CPU counters around the job, so the engine needs no round trip of its own
  # to read them; the snapshots this shell took itself are in hand, not read again
  printf '%s+%s|%s|%s\n' "$nonce" "$cb" "$ca" "$tm" >&2
  exit 0
}

wait_job() {
  dir=$1 nonce=$2 limit=$3 keep=$4
  # the job's start: the time of change of `started` (epoch seconds in it, from older versions)
  started=
  read -r started <"$dir/started" 2>/dev/null
  case $started in '' | *[!0-9]*) started=$(date -r "$dir/started" +%s 2>/dev/null) ;; esac
  case $started in '' | *[!0-9]*) started=$(date +%s) ;; esac
  # A wait runs on the measured machine while its job measures: it must cost next to nothing.
  # With a FIFO (`ended`, made here: only a wait that reattached comes here) and `timeout`, it
  # blocks reading the FIFO until the job ends (the job writes to it then) or 5 s pass, so it
  # wakes at once when the job ends and every 5 s to check that the job is alive and within its
  # limit: three short processes per 5 s, none in between. Without them it polls, more often at
  # first.
  blocking=
  [ -p "$dir/ended" ] || mkfifo "$dir/ended" 2>/dev/null
  if [ -p "$dir/ended" ]; then
    timeout_word
    if [ -n "$tw" ]; then
      blocking="$tw 5"
      # opened before the first look at the status: a byte the job writes from now on waits here
      exec 8<>"$dir/ended"
    fi
  fi
  pause=0.01
  n=0
  while :; do
    read_status "$dir"
    [ -n "$st" ] && finish "$dir" "$nonce" "$st" "$keep"
    if ! alive "$dir"; then
      # the status is written just after the job's group ends: give it a moment before
      # calling the job lost
      i=0
      while [ $i -lt 40 ]; do
        read_status "$dir"
        [ -n "$st" ] && finish "$dir" "$nonce" "$st" "$keep"
        sleep 0.01 2>/dev/null || sleep 1
        i=$((i + 1))
      done
      finish "$dir" "$nonce" lost "$keep"
    fi
    now=$(date +%s)
    if [ $((now - started)) -ge "$limit" ]; then
      stop "$dir" 2000
      record_status "$dir" timeout
      read_status "$dir"
      finish "$dir" "$nonce" "$st" "$keep"
    fi
    if [ -n "$blocking" ]; then
      $blocking head -c 1 <&8 >/dev/null 2>&1
      continue
    fi
    sleep "$pause" 2>/dev/null || sleep 1
    n=$((n + 1))
    case $n in 20) pause=0.1 ;; 60) pause=0.5 ;; esac
  done
}

ended() {
  read_status "$1"
  [ -n "$st" ] || ! alive "$1"
}

follow() {
  dir=$1
  i=0
  # until the job has started writing (or has ended: its status is there); `ended` cannot tell
  # before the job has named its process group
  while [ ! -f "$dir/stderr" ] && [ ! -f "$dir/status" ] && [ $i -lt 300 ]; do
    sleep 0.01 2>/dev/null || sleep 1
    i=$((i + 1))
  done
  tail -n +1 -f "$dir/stdout" "$dir/stderr" 2>/dev/null &
  t=$!
  # ends with the job, so no tail is left behind when nobody stops it
  while ! ended "$dir"; do
    sleep 0.2 2>/dev/null || sleep 1
  done
  sleep 0.2 2>/dev/null || sleep 1
  kill "$t" 2>/dev/null
  exit 0
}

stopall() {
  for job in "$1"/.jobs/*/; do
    [ -d "$job" ] || continue
    job=${job%/}
    ended "$job" && continue
    stop "$job" "$2"
    echo "$job"
  done
  exit 0
}

# A run's folder is a leftover when none of its jobs runs and its marker has not changed for
# FRESH_MINUTES: a live run rewrites it at its start and at each job's start (prepare), so a run
# between two jobs (or another VirtBench's run on the same machine) keeps its folder; a crashed
# run's is removed by the first run after that.
FRESH_MINUTES=120
sweep() {
  root=$1 keep=$2
  for marker in "$root"/vb-*/.virtbench-run; do
    [ -f "$marker" ] || continue
    run=$(dirname "$marker")
    # this run's own folders (one per target: two targets on one machine never share one)
    case $(basename "$run") in "vb-$keep" | "vb-$keep-"*) continue ;; esac
    [ -n "$(find "$marker" -mmin "-$FRESH_MINUTES" 2>/dev/null)" ] && continue
    busy=0
    for job in "$run"/.jobs/*/; do
      [ -d "$job" ] || continue
      ended "${job%/}" || busy=1
    done
    [ "$busy" = 1 ] && continue
    rm -rf "$run" && echo "$run"
  done
  exit 0
}

cmd=${1:-}
case $cmd in
  start) start "$2" "$3" ;;
  wait) wait_job "$2" "$3" "$4" "${5:-4194304}" ;;
  run) run_job "$2" "$3" "$4" "${5:-4194304}" ;;
  serve) serve ;;
  expire) expire "$2" "$3" ;;
  follow) follow "$2" ;;
  stop) stop "$2" "${3:-2000}" ;;
  stopall) stopall "$2" "${3:-2000}" ;;
  sweep) sweep "$2" "$3" ;;
  *) echo "usage: job.sh start|wait|run|serve|follow|stop|stopall|sweep ..." >&2; exit 64 ;;
esac
