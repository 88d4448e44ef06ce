#!/bin/sh
# VirtBench target probe: prints facts about this machine as key=value lines, one per line.
# Read-only and harmless: reads /proc, /sys and /etc/os-release, runs uname and
# systemd-detect-virt when present. A fact that cannot be found is left out, never guessed.
LC_ALL=C
export LC_ALL

kv() {
  # key=value, with the value's newlines and carriage returns turned into spaces
  [ -n "$2" ] && printf '%s=%s\n' "$1" "$(printf '%s' "$2" | tr '\r\n' '  ')"
}

kv os "$(uname -s)"
kv kernel "$(uname -r)"
kv arch "$(uname -m)"
if [ -r /etc/os-release ]; then
  kv distro "$(. /etc/os-release && printf '%s' "${PRETTY_NAME:-$NAME}")"
fi
kv cpus "$(getconf _NPROCESSORS_ONLN 2>/dev/null)"
kv cpu_model "$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)"
# %.0f, not %d: some awks (mawk) cap %d at 2^31-1
kv mem_total_bytes "$(awk '/^MemTotal:/ { printf "%.0f", $2 * 1024 }' /proc/meminfo 2>/dev/null)"

# virtualization: systemd's own detection first, then the CPU flag, then the DMI strings
if command -v systemd-detect-virt >/dev/null 2>&1; then
  kv virt_vm "$(systemd-detect-virt --vm 2>/dev/null)"
  kv virt_container "$(systemd-detect-virt --container 2>/dev/null)"
fi
if grep -qw hypervisor /proc/cpuinfo 2>/dev/null; then
  kv cpu_hypervisor_flag yes
else
  [ -r /proc/cpuinfo ] && kv cpu_hypervisor_flag no
fi
for f in sys_vendor product_name product_version board_vendor; do
  [ -r "/sys/class/dmi/id/$f" ] && kv "dmi_$f" "$(cat "/sys/class/dmi/id/$f" 2>/dev/null)"
done
[ -r /sys/hypervisor/type ] && kv hypervisor_type "$(cat /sys/hypervisor/type 2>/dev/null)"
exit 0
