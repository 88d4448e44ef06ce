#!/bin/sh
# VirtBench environment capture: what a target is, for the run's record and report.
#
#   sh environment.sh [--tool ID KIND COMMAND ARGS PICK]... [WORKDIR] [DOMAIN...]
#
# Each --tool is how one tool is found and its version read (tool-version.sh says how).
#
# Read-only, needs no root, and never fails as a whole (exit 0): each fact that cannot be read is
# left out, never guessed. POSIX sh only (Debian's dash, BusyBox ash).
#
# Output: one fact per line, fields separated by one TAB, values with tabs and newlines turned
# into spaces (src/main/engine/environment/parse.ts reads it; docs/environment.md lists the keys):
#   KEY<TAB>VALUE                          os, kernel, mem_total_kib, clocksource ...
#   dev<TAB>NAME<TAB>KEY<TAB>VALUE         one block device of /sys/block
#   nic<TAB>NAME<TAB>KEY<TAB>VALUE         one network interface of /sys/class/net
#   workdir<TAB>KEY<TAB>VALUE              the test directory's filesystem
#   tool<TAB>ID<TAB>VERSION                a benchmark tool found on PATH
#   note<TAB>TEXT                          something that could not be read, in words
#   domain-xml-begin<TAB>NAME ... domain-xml-end<TAB>NAME   `virsh dumpxml NAME`, verbatim
#   domain-error<TAB>NAME<TAB>TEXT         why a domain's XML could not be read
# The first line is `virtbench-environment<TAB>1` (format version), the last `end<TAB>ok`.
LC_ALL=C
export LC_ALL
PATH="$PATH:/usr/sbin:/sbin:/usr/local/sbin"
export PATH
TAB=$(printf '\t')
US=$(printf '\037')
. "$(dirname "$0")/tool-version.sh"

tools=
while [ "${1:-}" = --tool ] && [ $# -ge 6 ]; do
  tools="$tools$2$US$3$US$4$US$5$US$6
"
  shift 6
done

one_line() {
  printf '%s' "$1" | tr '\t\r\n' '   ' | sed 's/^ *//; s/ *$//'
}

# fact KEY... VALUE: prints the line when VALUE is not empty
fact() {
  line=''
  while [ $# -gt 1 ]; do
    line="$line$1$TAB"
    shift
  done
  value=$(one_line "$1")
  [ -n "$value" ] && printf '%s%s\n' "$line" "$value"
  return 0
}

note() {
  printf 'note\t%s\n' "$(one_line "$1")"
}

has() {
  command -v "$1" >/dev/null 2>&1
}

read_first_line() {
  [ -r "$1" ] && head -n 1 "$1" 2>/dev/null
}

# count_entries DIR: how many entries DIR holds (a function, so `set --` leaves the script's
# own arguments alone)
count_entries() {
  set -- "$1"/*
  [ -e "$1" ] && echo $#
}

printf 'virtbench-environment\t1\n'

# --- system ---------------------------------------------------------------------------------
os_release=/etc/os-release
[ -r "$os_release" ] || os_release=/usr/lib/os-release
if [ -r "$os_release" ]; then
  # read, not sourced: the value of PRETTY_NAME (or NAME VERSION) without its quotes
  unquote='s/^[A-Z_]*=//; s/^"\(.*\)"$/\1/; s/^'"'"'\(.*\)'"'"'$/\1/'
  os=$(grep '^PRETTY_NAME=' "$os_release" 2>/dev/null | head -n 1 | sed "$unquote")
  if [ -z "$os" ]; then
    os="$(grep '^NAME=' "$os_release" 2>/dev/null | head -n 1 | sed "$unquote") $(grep '^VERSION=' "$os_release" 2>/dev/null | head -n 1 | sed "$unquote")"
  fi
  fact os "$os"
fi
fact kernel "$(uname -r 2>/dev/null)"
fact arch "$(uname -m 2>/dev/null)"
fact hostname "$(uname -n 2>/dev/null)"
# which machine and which boot this is: two targets with both the same are one running system
# (two logins, a container, a loopback test), whatever their names and host keys
fact machine_id "$(read_first_line /etc/machine-id)"
fact boot_id "$(read_first_line /proc/sys/kernel/random/boot_id)"

model=''
if [ -r /proc/cpuinfo ]; then
  # x86 says "model name"; older ARM "Processor"; MIPS "cpu model"; POWER "cpu"
  for key in 'model name' 'Processor' 'cpu model' 'cpu'; do
    model=$(sed -n "s/^$key[[:space:]]*:[[:space:]]*//p" /proc/cpuinfo 2>/dev/null | head -n 1)
    [ -n "$model" ] && break
  done
fi
# newer ARM kernels name no model in /proc/cpuinfo; lscpu knows the cores by their part numbers
if [ -z "$model" ] && has lscpu; then
  model=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
fi
fact cpu_model "$model"
if [ -r /proc/cpuinfo ]; then
  if grep -q '^flags' /proc/cpuinfo 2>/dev/null; then
    if grep '^flags' /proc/cpuinfo 2>/dev/null | head -n 1 | grep -qw hypervisor; then
      fact cpu_hypervisor_flag yes
    else
      fact cpu_hypervisor_flag no
    fi
  fi
fi
if has nproc; then
  fact cpu_count "$(nproc 2>/dev/null)"
else
  fact cpu_count "$(getconf _NPROCESSORS_ONLN 2>/dev/null)"
fi
fact mem_total_kib "$(sed -n 's/^MemTotal:[[:space:]]*\([0-9]*\) kB$/\1/p' /proc/meminfo 2>/dev/null)"

# --- virtualization: systemd's own detection, else virt-what (root only), and always the
# DMI strings, /sys/hypervisor and the cpu flag above (the parser decides from those) ---------
if has systemd-detect-virt; then
  fact virt_systemd "$(systemd-detect-virt --vm 2>/dev/null)"
  fact container_systemd "$(systemd-detect-virt --container 2>/dev/null)"
elif has virt-what; then
  if [ "$(id -u 2>/dev/null)" = 0 ]; then
    what=$(limited 10 virt-what 2>/dev/null)
    if [ $? -eq 0 ]; then
      # virt-what prints nothing on bare metal; several lines, most general first, otherwise
      [ -z "$what" ] && what=none
      fact virt_what "$what"
    fi
  else
    note 'virt-what needs root and systemd-detect-virt is not installed: virtualization read from DMI and the cpu flags only'
  fi
fi
fact dmi_vendor "$(read_first_line /sys/class/dmi/id/sys_vendor)"
fact dmi_product "$(read_first_line /sys/class/dmi/id/product_name)"
fact hypervisor_type "$(read_first_line /sys/hypervisor/type)"

# --- block devices --------------------------------------------------------------------------
for path in /sys/block/*; do
  [ -d "$path" ] || continue
  dev=${path##*/}
  case $dev in
    loop* | ram* | zram*) continue ;;
  esac
  sectors=$(read_first_line "$path/size")
  # an empty slot (an nbd not connected, a drive without a medium) is not a disk to describe
  [ "$sectors" = 0 ] && continue
  case $sectors in
    '' | *[!0-9]*) ;;
    *) fact dev "$dev" size_bytes "$(awk -v s="$sectors" 'BEGIN { printf "%.0f", s * 512 }')" ;;
  esac
  fact dev "$dev" model "$(read_first_line "$path/device/model")"
  fact dev "$dev" scheduler "$(read_first_line "$path/queue/scheduler")"
  fact dev "$dev" rotational "$(read_first_line "$path/queue/rotational")"
  fact dev "$dev" write_cache "$(read_first_line "$path/queue/write_cache")"
  [ -d "$path/mq" ] && fact dev "$dev" mq_queues "$(count_entries "$path/mq")"
done

# --- the work directory's filesystem (its nearest existing parent when not created yet) --------
workdir=$1
if [ -n "$workdir" ]; then
  fact workdir path "$workdir"
  probe=$workdir
  while [ ! -e "$probe" ] && [ "$probe" != / ] && [ "$probe" != . ]; do
    probe=$(dirname "$probe")
  done
  # df -P: one line per filesystem even for long device names; 1024-byte blocks with -k
  df_line=$(df -Pk "$probe" 2>/dev/null | tail -n +2 | head -n 1)
  if [ -n "$df_line" ]; then
    fact workdir device "$(printf '%s\n' "$df_line" | awk '{ print $1 }')"
    fact workdir free_bytes "$(printf '%s\n' "$df_line" | awk '$4 ~ /^[0-9]+$/ { printf "%.0f", $4 * 1024 }')"
    mount_point=$(printf '%s\n' "$df_line" | awk '{ for (i = 6; i <= NF; i++) printf "%s%s", (i > 6 ? " " : ""), $i }')
  else
    note "df could not read the filesystem of $workdir"
    mount_point=''
  fi
  # the type: GNU df -T names it exactly; else /proc/mounts for the mount point; else stat -f
  fs=$(df -PT "$probe" 2>/dev/null | tail -n +2 | head -n 1 | awk '$3 ~ /^[0-9]+$/ { print $2 }')
  if [ -z "$fs" ] && [ -n "$mount_point" ] && [ -r /proc/mounts ]; then
    fs=$(awk -v m="$mount_point" '{ gsub(/\\040/, " ", $2) } $2 == m { t = $3 } END { print t }' /proc/mounts)
  fi
  [ -z "$fs" ] && fs=$(stat -f -c %T "$probe" 2>/dev/null)
  fact workdir filesystem "$fs"
fi
[ $# -gt 0 ] && shift

# --- network interfaces ---------------------------------------------------------------------
addresses=''
if has ip; then
  addresses=$(ip -o addr show 2>/dev/null)
fi
has ethtool || note 'ethtool is not installed: NIC channels not read'
for path in /sys/class/net/*; do
  [ -e "$path" ] || continue
  nic=${path##*/}
  [ "$nic" = lo ] && continue
  fact nic "$nic" present yes
  # reading speed fails (EINVAL) on a link that is down; -1 means unknown
  speed=$(cat "$path/speed" 2>/dev/null)
  case $speed in
    '' | -* | *[!0-9]*) ;;
    *) fact nic "$nic" speed_mbps "$speed" ;;
  esac
  if [ -e "$path/device/driver" ]; then
    driver=$(readlink "$path/device/driver" 2>/dev/null)
    fact nic "$nic" driver "${driver##*/}"
  fi
  if has ethtool; then
    limited 5 ethtool -l "$nic" 2>/dev/null | awk -v nic="$nic" '
      /^Pre-set maximums/ { part = "channels_max" }
      /^Current hardware settings/ { part = "channels_current" }
      /^Combined:/ && part != "" && $2 ~ /^[0-9]+$/ { printf "nic\t%s\t%s\t%s\n", nic, part, $2 }'
  fi
  if [ -n "$addresses" ]; then
    printf '%s\n' "$addresses" | awk -v nic="$nic" '
      { name = $2; sub(/@.*/, "", name) }
      name == nic && ($3 == "inet" || $3 == "inet6") { printf "nic\t%s\taddress\t%s\n", nic, $4 }'
  fi
done

# --- tool versions: one short line each, only for the tools found ----------------------------
printf '%s' "$tools" | while IFS=$US read -r id kind cmd args pick; do
  [ -n "$id" ] || continue
  if tool_probe "$kind" "$cmd" "$args" "$pick"; then fact tool "$id" "$tool_version"; fi
done

# --- time and load --------------------------------------------------------------------------
fact clocksource "$(read_first_line /sys/devices/system/clocksource/clocksource0/current_clocksource)"
# the aggregate cpu line of /proc/stat (user nice system idle iowait irq softirq steal guest
# guest_nice, in ticks since boot); steal % is computed by the parser
fact stat_cpu "$(sed -n 's/^cpu[[:space:]][[:space:]]*//p' /proc/stat 2>/dev/null | head -n 1)"
fact loadavg "$(read_first_line /proc/loadavg)"

# --- libvirt domains (on a physical host): the XML as `virsh dumpxml` prints it -------------
for domain in "$@"; do
  if ! has virsh; then
    printf 'domain-error\t%s\t%s\n' "$(one_line "$domain")" 'virsh is not installed on this host'
    continue
  fi
  # the default connection first (qemu:///system for root, qemu:///session otherwise), then the
  # system daemon's read-only socket, which most distributions open to every user
  xml=$(limited 15 virsh dumpxml -- "$domain" 2>/dev/null)
  if [ $? -ne 0 ] || [ -z "$xml" ]; then
    errors=$(mktemp 2>/dev/null) || errors=/dev/null
    xml=$(limited 15 virsh -r -c qemu:///system dumpxml -- "$domain" 2>"$errors")
    status=$?
    error=''
    if [ "$errors" != /dev/null ]; then
      error=$(grep -v '^$' "$errors" 2>/dev/null | head -n 2)
      rm -f "$errors"
    fi
    if [ $status -ne 0 ] || [ -z "$xml" ]; then
      [ -z "$error" ] && error="virsh dumpxml exited with status $status"
      printf 'domain-error\t%s\t%s\n' "$(one_line "$domain")" "$(one_line "$error")"
      continue
    fi
  fi
  printf 'domain-xml-begin\t%s\n%s\ndomain-xml-end\t%s\n' "$(one_line "$domain")" "$xml" "$(one_line "$domain")"
done

printf 'end\tok\n'
exit 0
