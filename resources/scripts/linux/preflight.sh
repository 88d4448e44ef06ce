#!/bin/sh
# VirtBench preflight: what a target has before a comparison runs on it. Prints one fact per line
# as key<TAB>value[<TAB>value...] (docs/preflight.md lists the keys), between a `preflight 1` line
# and an `end 1` line. Needs no root and never calls sudo itself: the engine runs the --device part
# through sudo when the target is configured for it. A fact that cannot be read is left out or
# reported as such, never guessed. The only things it writes: the test directory (mkdir -p) and a
# 4 KiB probe file inside it, removed at once.
#
#   sh preflight.sh [--tool ID KIND COMMAND ARGS PICK]... [--dir PATH] [--device PATH]
#                   [--idle-seconds N]
# Each --tool is how one tool is found and its version read (tool-version.sh says how).
LC_ALL=C
export LC_ALL
PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"
export PATH
TAB=$(printf '\t')
# separates the fields of a --tool inside one line (not whitespace: empty fields survive `read`)
US=$(printf '\037')
. "$(dirname "$0")/tool-version.sh"

# out KEY VALUE...: one line; tabs, carriage returns and newlines inside a value become spaces
out() {
  line=$1
  shift
  for v in "$@"; do
    line="$line$TAB$(printf '%s' "$v" | tr '\t\r\n' '   ')"
  done
  printf '%s\n' "$line"
}

# put KEY VALUE: only when VALUE is not empty
put() {
  [ -n "$2" ] && out "$1" "$2"
  return 0
}

yes_no() {
  if "$@"; then printf yes; else printf no; fi
}

first_line() {
  sed -n '1{p;q;}'
}

tools=
dir=
device=
idle=0
while [ $# -gt 0 ]; do
  case $1 in
    --tool)
      if [ $# -lt 6 ]; then
        out error "--tool needs ID KIND COMMAND ARGS PICK"
        exit 2
      fi
      tools="$tools$2$US$3$US$4$US$5$US$6
"
      shift 6
      ;;
    --dir | --device | --idle-seconds)
      if [ $# -lt 2 ]; then
        out error "$1 needs a value"
        exit 2
      fi
      case $1 in
        --dir) dir=$2 ;;
        --device) device=$2 ;;
        --idle-seconds) idle=$2 ;;
      esac
      shift 2
      ;;
    *)
      out error "unknown argument: $1"
      exit 2
      ;;
  esac
done
case $idle in
  '' | *[!0-9]*)
    out error "--idle-seconds must be a whole number of seconds, not $idle"
    exit 2
    ;;
esac

out preflight 1

# ---- this machine ------------------------------------------------------------------------------

put system "$(uname -s 2>/dev/null)"
put uid "$(id -u 2>/dev/null)"
put cpus "$(getconf _NPROCESSORS_ONLN 2>/dev/null || grep -c '^processor' /proc/cpuinfo 2>/dev/null)"
# %.0f, not %d: some awks (mawk) cap %d at 2^31-1
put mem_total_bytes "$(awk '/^MemTotal:/ { printf "%.0f", $2 * 1024 }' /proc/meminfo 2>/dev/null)"

for pm in apt-get dnf yum zypper apk; do
  if command -v "$pm" >/dev/null 2>&1; then
    case $pm in apt-get) out package_manager apt ;; *) out package_manager "$pm" ;; esac
    break
  fi
done

sudo_works() {
  sudo -n true </dev/null >/dev/null 2>&1
}

if command -v sudo >/dev/null 2>&1; then
  out sudo present
  out sudo.passwordless "$(yes_no sudo_works)"
else
  out sudo absent
fi

# is_busybox PATH: the command is a BusyBox applet (whose options differ from util-linux')
is_busybox() {
  case $(readlink -f "$1" 2>/dev/null) in */busybox*) return 0 ;; esac
  return 1
}

# ---- tools -------------------------------------------------------------------------------------

printf '%s' "$tools" | while IFS=$US read -r name kind cmd args pick; do
  case $name in
    '' | *[!A-Za-z0-9_.+-]*)
      out error "not a tool name: $name"
      continue
      ;;
  esac
  if tool_probe "$kind" "$cmd" "$args" "$pick"; then
    out tool.found "$name" "$tool_path" "$tool_version"
  else
    out tool.missing "$name"
  fi
done

# ---- the test directory ------------------------------------------------------------------------

if [ -n "$dir" ]; then
  case $dir in "~") dir=$HOME ;; "~/"*) dir="$HOME/${dir#\~/}" ;; esac
  out dir.path "$dir"
  if [ -d "$dir" ]; then
    out dir.existed yes
  else
    out dir.existed no
    if err=$(mkdir -p -- "$dir" 2>&1); then
      out dir.created yes
    else
      out dir.created no
      put dir.mkdir_error "$(printf '%s' "$err" | first_line)"
    fi
  fi
  if [ -d "$dir" ]; then
    out dir.exists yes
    # df -P: one line per filesystem, never wrapped; the mount point is what follows the 5th field
    fstype=
    dfline=$(df -Pk -- "$dir" 2>/dev/null | sed -n '2p')
    if [ -n "$dfline" ]; then
      put dir.source "$(printf '%s\n' "$dfline" | awk '{ print $1 }')"
      put dir.free_bytes "$(printf '%s\n' "$dfline" | awk '$4 ~ /^[0-9]+$/ { printf "%.0f", $4 * 1024 }')"
      mnt=$(printf '%s\n' "$dfline" | sed 's/^[^ ]*  *[^ ]*  *[^ ]*  *[^ ]*  *[^ ]*  *//')
      put dir.mount_point "$mnt"
      # the filesystem mounted last on that mount point is the one in use
      fstype=$(awk -v m="$mnt" '$2 == m { t = $3 } END { print t }' /proc/mounts 2>/dev/null)
    fi
    [ -n "$fstype" ] || fstype=$(stat -f -c %T -- "$dir" 2>/dev/null)
    put dir.fstype "$fstype"

    probe="$dir/.vb-direct-probe.$$"
    if err=$( (: >"$probe") 2>&1); then
      out dir.writable yes
      rm -f -- "$probe"
      if err=$(dd if=/dev/zero of="$probe" bs=4096 count=1 oflag=direct 2>&1); then
        out dir.direct yes
      else
        out dir.direct no
        put dir.direct_error "$(printf '%s\n' "$err" | first_line)"
      fi
      rm -f -- "$probe"
    else
      out dir.writable no
      put dir.write_error "$(printf '%s\n' "$err" | first_line)"
    fi
  else
    out dir.exists no
  fi
fi

# ---- the raw device ----------------------------------------------------------------------------

# mounts_of "NAME..." "MAJ:MIN..." "PATH...": mounts whose device is one of these
mounts_of() {
  if [ -r /proc/self/mountinfo ]; then
    # fields: id parent maj:min root mount-point options [optional...] - fstype source super-options
    awk -v ids=" $2 " -v paths=" $3 " '{
      for (i = 7; i <= NF && $i != "-"; i++) ;
      fstype = $(i + 1); src = $(i + 2)
      if (index(ids, " " $3 " ") || index(paths, " " src " ")) print src "\t" $5 "\t" fstype
    }' /proc/self/mountinfo
  else
    awk -v paths=" $3 " 'index(paths, " " $1 " ") { print $1 "\t" $2 "\t" $3 }' /proc/mounts 2>/dev/null
  fi
}

device_section() {
  out device.path "$device"
  if [ ! -e "$device" ]; then
    out device.exists no
    return
  fi
  out device.exists yes
  if [ ! -b "$device" ]; then
    out device.block no
    return
  fi
  out device.block yes
  real=$(readlink -f -- "$device" 2>/dev/null)
  put device.resolved "$real"

  # the kernel's name for it: through its major:minor, so /dev/disk/by-id links and
  # /dev/mapper names find the same /sys entry
  majmin=
  hex=$(stat -L -c '%t %T' -- "$device" 2>/dev/null)
  if [ -n "$hex" ]; then
    set -- $hex
    majmin=$(printf '%d:%d' "0x$1" "0x$2" 2>/dev/null)
  fi
  sys=
  if [ -n "$majmin" ] && [ -e "/sys/dev/block/$majmin" ]; then
    sys=$(readlink -f "/sys/dev/block/$majmin")
  elif [ -n "$real" ] && [ -e "/sys/class/block/${real##*/}" ]; then
    sys=$(readlink -f "/sys/class/block/${real##*/}")
  fi
  name=${sys##*/}
  put device.name "$name"
  put device.majmin "$majmin"
  if [ -n "$sys" ] && [ -f "$sys/partition" ]; then
    out device.partition_of "$(basename "$(dirname "$sys")")"
  fi

  size=$(blockdev --getsize64 "$device" 2>/dev/null)
  if [ -z "$size" ] && [ -n "$sys" ] && [ -r "$sys/size" ]; then
    size=$(awk '{ printf "%.0f", $1 * 512 }' "$sys/size")
  fi
  put device.size_bytes "$size"
  [ -n "$sys" ] && [ -r "$sys/ro" ] && out device.readonly "$(yes_no [ "$(cat "$sys/ro")" = 1 ])"

  # partitions, then everything stacked on the device or its partitions (LVM, RAID, dm-crypt...)
  parts=
  if [ -n "$sys" ]; then
    for p in "$sys"/*/partition; do
      [ -f "$p" ] || continue
      pn=$(basename "$(dirname "$p")")
      parts="$parts $pn"
      out device.partition "$pn"
    done
  fi
  related=
  todo="$name $parts"
  n_seen=0
  while [ -n "$name" ] && [ -n "$(printf '%s' "$todo" | tr -d ' ')" ] && [ "$n_seen" -lt 64 ]; do
    set -- $todo
    n=$1
    shift
    todo="$*"
    case " $related " in *" $n "*) continue ;; esac
    related="$related $n"
    n_seen=$((n_seen + 1))
    for h in /sys/class/block/"$n"/holders/*; do
      [ -e "$h" ] || continue
      hn=${h##*/}
      dm=
      [ -r "/sys/class/block/$hn/dm/name" ] && dm=$(cat "/sys/class/block/$hn/dm/name")
      out device.holder "$n" "$hn" "$dm"
      todo="$todo $hn"
    done
  done
  [ -n "$related" ] || related=" ${real##*/}"

  ids=
  paths=" $device $real"
  for n in $related; do
    [ -r "/sys/class/block/$n/dev" ] && ids="$ids $(cat "/sys/class/block/$n/dev")"
    paths="$paths /dev/$n"
    [ -r "/sys/class/block/$n/dm/name" ] && paths="$paths /dev/mapper/$(cat "/sys/class/block/$n/dm/name")"
  done
  mounts_of "$related" "$ids" "$paths" | while IFS=$TAB read -r src mp fst; do
    out device.mount "$src" "$mp" "$fst"
  done
  if [ -r /proc/swaps ]; then
    awk -v paths="$paths " 'NR > 1 && index(paths, " " $1 " ") { print $1 }' /proc/swaps | while read -r sw; do
      out device.swap "$sw"
    done
  fi

  # can we read it at all? (blkid and wipefs say little when they cannot)
  if err=$(dd if="$device" of=/dev/null bs=4096 count=1 2>&1); then
    out device.readable yes
  else
    out device.readable no
    put device.read_error "$(printf '%s\n' "$err" | sed -n '/./{p;q;}')"
  fi

  # signatures: filesystems, partition tables, LVM and RAID members
  w=$(command -v wipefs 2>/dev/null)
  if [ -z "$w" ] || is_busybox "$w"; then
    out device.wipefs.status absent
  elif lines=$(wipefs -n --noheadings -O TYPE,OFFSET -- "$device" 2>/dev/null); then
    out device.wipefs.status ok
    printf '%s\n' "$lines" | while read -r line; do put device.wipefs "$line"; done
  elif lines=$(wipefs -n -- "$device" 2>/dev/null); then
    # an older wipefs without -o: its own table, header lines dropped
    out device.wipefs.status ok
    printf '%s\n' "$lines" | sed -e '/^DEVICE /d' -e '/^offset /d' -e '/^---/d' | while read -r line; do
      put device.wipefs_raw "$line"
    done
  else
    out device.wipefs.status failed
    put device.wipefs.error "$(wipefs -n -- "$device" 2>&1 >/dev/null | sed -n '/./{p;q;}')"
  fi

  b=$(command -v blkid 2>/dev/null)
  if [ -z "$b" ] || is_busybox "$b"; then
    out device.blkid.status absent
  else
    errf=$(mktemp 2>/dev/null || printf '%s' "/tmp/.vb-preflight.$$")
    lines=$(blkid -p -- "$device" 2>"$errf")
    rc=$?
    err=$(sed -n '/./{p;q;}' "$errf" 2>/dev/null)
    rm -f -- "$errf"
    # blkid -p: 0 found something, 2 found nothing (or failed, then it says why on stderr),
    # 8 several signatures that contradict each other
    if [ "$rc" = 0 ]; then
      out device.blkid.status ok
      printf '%s\n' "$lines" | while read -r line; do put device.blkid "$line"; done
    elif [ "$rc" = 2 ] && [ -z "$err" ]; then
      out device.blkid.status ok
    elif [ "$rc" = 8 ]; then
      out device.blkid.status ok
      out device.blkid "ambivalent: ${err:-several signatures}"
    else
      out device.blkid.status failed
      put device.blkid.error "${err:-blkid -p exited with status $rc}"
    fi
  fi

  # lsblk reads udev's database: an empty answer proves nothing, a filled one is a signature
  l=$(command -v lsblk 2>/dev/null)
  if [ -z "$l" ] || is_busybox "$l"; then
    out device.lsblk.status absent
  elif lines=$(lsblk -nPo NAME,FSTYPE,PTTYPE -- "$device" 2>/dev/null); then
    out device.lsblk.status ok
    printf '%s\n' "$lines" | while read -r line; do put device.lsblk "$line"; done
  else
    out device.lsblk.status failed
  fi
}

if [ -n "$device" ]; then
  device_section
fi

# ---- is the machine idle? ----------------------------------------------------------------------

if [ "$idle" -gt 0 ]; then
  s1=$(sed -n 's/^cpu  *//p' /proc/stat 2>/dev/null)
  sleep "$idle"
  s2=$(sed -n 's/^cpu  *//p' /proc/stat 2>/dev/null)
  out idle.seconds "$idle"
  if [ -r /proc/loadavg ]; then
    read -r l1 l5 l15 _rest </proc/loadavg
    out idle.load "$l1" "$l5" "$l15"
  fi
  if [ -n "$s1" ] && [ -n "$s2" ]; then
    # user nice system idle iowait irq softirq steal (guest time is already inside user and nice);
    # busy is what this machine's own work took: neither idle, nor waiting for I/O, nor stolen
    awk -v a="$s1" -v b="$s2" 'BEGIN {
      n = split(a, x, " "); split(b, y, " ")
      if (n < 4) exit
      if (n > 8) n = 8
      for (i = 1; i <= n; i++) { d[i] = y[i] - x[i]; total += d[i] }
      if (total <= 0) exit
      io = (n >= 5) ? d[5] : 0
      st = (n >= 8) ? d[8] : 0
      printf "idle.busy_pct\t%.1f\n", 100 * (total - d[4] - io - st) / total
      if (n >= 5) printf "idle.iowait_pct\t%.1f\n", 100 * io / total
      if (n >= 8) printf "idle.steal_pct\t%.1f\n", 100 * st / total
    }'
  fi
fi

out end 1
exit 0
