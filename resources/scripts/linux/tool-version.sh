# VirtBench: finding a benchmark tool on a target and reading its version. Sourced by
# preflight.sh and environment.sh; the engine passes each tool's probe as its tool declares it
# (src/main/tools/<tool>/, `version`), so no script knows a tool's flags:
#
#   --tool ID KIND COMMAND ARGS PICK
#     KIND command: COMMAND on PATH; its version is what `COMMAND ARGS` prints (both streams,
#                   5 s at most): the text PICK (a `sed -n` script) prints, else the first line
#                   that carries a version number. ARGS are split on spaces.
#     KIND package: COMMAND on PATH prints no version; its package's (PICK is the package name,
#                   read with dpkg-query or rpm).
#     KIND folder:  not on PATH: the first folder of ARGS (separated by ':', `~` is $HOME) that
#                   holds the file COMMAND; PICK (a `sed -n` script) reads the version from it.
#
# tool_probe sets tool_path and tool_version and returns 0 when the tool is there, 1 when not.
# Also defines `limited`, which the sourcing scripts use for other commands.
# POSIX sh only (Debian's dash, BusyBox ash); never fails the sourcing script.

# limited SECONDS CMD...: runs CMD with stdin from /dev/null, ended after SECONDS when a
# `timeout` exists (GNU and new BusyBox take `timeout N`, old BusyBox `timeout -t N`)
if command -v timeout >/dev/null 2>&1 && timeout 5 true >/dev/null 2>&1; then
  limited() { tv_secs=$1; shift; timeout "$tv_secs" "$@" </dev/null; }
elif command -v timeout >/dev/null 2>&1 && timeout -t 5 true >/dev/null 2>&1; then
  limited() { tv_secs=$1; shift; timeout -t "$tv_secs" "$@" </dev/null; }
else
  limited() { shift; "$@" </dev/null; }
fi

# tv_version_line: the first input line that carries a version number (1.2, or a date 20221126)
tv_version_line() {
  awk '/[0-9]+\.[0-9]+|[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]/ { print; exit }' | cut -c 1-120
}

# tv_home PATH: `~` and `~/...` in $HOME
tv_home() {
  case $1 in
    "~") printf '%s' "$HOME" ;;
    "~/"*) printf '%s/%s' "$HOME" "${1#\~/}" ;;
    *) printf '%s' "$1" ;;
  esac
}

# tool_probe KIND COMMAND ARGS PICK
tool_probe() {
  tool_path=
  tool_version=
  tv_kind=$1 tv_cmd=$2 tv_args=$3 tv_pick=$4
  case $tv_kind in
    command | package)
      tool_path=$(command -v "$tv_cmd" 2>/dev/null)
      case $tool_path in /*) ;; *) tool_path= ; return 1 ;; esac
      if [ "$tv_kind" = package ]; then
        if command -v dpkg-query >/dev/null 2>&1; then
          tool_version=$(dpkg-query -W -f '${Version}' "$tv_pick" 2>/dev/null)
        fi
        if [ -z "$tool_version" ] && command -v rpm >/dev/null 2>&1; then
          tool_version=$(rpm -q --qf '%{VERSION}-%{RELEASE}' "$tv_pick" 2>/dev/null | grep -v 'not installed')
        fi
        if [ -n "$tool_version" ]; then
          tool_version="$tv_cmd $tool_version (package)"
        else
          tool_version="$tv_cmd (version unknown)"
        fi
      else
        set -f
        # shellcheck disable=SC2086 # ARGS are split on spaces on purpose
        if [ -n "$tv_pick" ]; then
          tool_version=$(limited 5 "$tool_path" $tv_args 2>&1 | sed -n "$tv_pick" | sed -n '1{p;q;}' | cut -c 1-120)
        else
          tool_version=$(limited 5 "$tool_path" $tv_args 2>&1 | tv_version_line)
        fi
        set +f
      fi
      return 0
      ;;
    folder)
      tv_rest=$tv_args
      while [ -n "$tv_rest" ]; do
        tv_dir=${tv_rest%%:*}
        case $tv_rest in *:*) tv_rest=${tv_rest#*:} ;; *) tv_rest= ;; esac
        [ -n "$tv_dir" ] || continue
        tv_dir=$(tv_home "$tv_dir")
        if [ -f "$tv_dir/$tv_cmd" ]; then
          tool_path=$tv_dir
          tool_version=$(sed -n "$tv_pick" "$tv_dir/$tv_cmd" 2>/dev/null | sed -n '1{p;q;}' | cut -c 1-120)
          return 0
        fi
      done
      return 1
      ;;
  esac
  return 1
}
