#!/usr/bin/env bash
# Builds the lab's guest image: a minimal Debian made with debootstrap, turned into a raw ext4
# root disk with mkfs.ext4 -d (no loop mounts), plus the kernel and initrd taken from its /boot,
# an empty qcow2 ext4 data disk, the root login key and the guests' SSH host key.
#
#   build-image.sh OUT_DIR MIRROR SUITE PACKAGES [KEYRING]
#
# OUT_DIR must not exist; it is written whole or not at all (built in OUT_DIR.partial, renamed
# at the end). MIRROR is the Debian archive the machine's apt uses (the caller reads it from
# apt's configuration); PACKAGES a comma-separated list; KEYRING the archive's keyring file.
# Needs root (debootstrap chroots), debootstrap, e2fsprogs, qemu-img and ssh-keygen.
set -euo pipefail

out=${1:?OUT_DIR}
mirror=${2:?MIRROR}
suite=${3:?SUITE}
packages=${4:?PACKAGES}
keyring=${5:-}

root_size=1536M
data_size=256M
work="$out.partial"
rootfs="$work/rootfs"

say() { printf '[lab build %s] %s\n' "$(date +%T)" "$*"; }

rm -rf "$work"
mkdir -p "$work"

say "debootstrap $suite from $mirror"
keyring_args=()
[ -n "$keyring" ] && [ -f "$keyring" ] && keyring_args=(--keyring="$keyring")
debootstrap --variant=minbase --components=main --include="$packages" "${keyring_args[@]}" \
  "$suite" "$rootfs" "$mirror"

say 'configuring the guest'
in_root() { chroot "$rootfs" "$@"; }

echo vb-guest >"$rootfs/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\tvb-guest\n' >"$rootfs/etc/hosts"
: >"$rootfs/etc/machine-id"
rm -f "$rootfs/var/lib/dbus/machine-id"

# qemu's user-mode network: the guest is always 10.0.2.15 behind the gateway 10.0.2.2
cat >"$rootfs/etc/systemd/network/10-qemu-user.network" <<'NET'
[Match]
Name=eth0

[Network]
Address=10.0.2.15/24
Gateway=10.0.2.2
LinkLocalAddressing=no
IPv6AcceptRA=no
NET

mkdir -p "$rootfs/etc/systemd/journald.conf.d"
printf '[Journal]\nStorage=volatile\nRuntimeMaxUse=16M\n' >"$rootfs/etc/systemd/journald.conf.d/virtbench-lab.conf"

cat >"$rootfs/etc/fstab" <<'FSTAB'
LABEL=vbroot  /      ext4  rw,noatime  0  0
LABEL=vbdata  /data  ext4  rw,noatime,nofail,x-systemd.device-timeout=20s  0  0
FSTAB
mkdir -p "$rootfs/data"

mkdir -p "$rootfs/etc/ssh/sshd_config.d"
cat >"$rootfs/etc/ssh/sshd_config.d/virtbench-lab.conf" <<'SSHD'
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UseDNS no
SSHD

# every guest of this image answers with the host keys openssh-server's install made here: the
# driver writes them into each guest's known_hosts, so logins check the key instead of taking it
cp "$rootfs/etc/ssh/ssh_host_ed25519_key.pub" "$work/host_key.pub"

say 'root login key'
ssh-keygen -q -t ed25519 -N '' -C virtbench-lab -f "$work/id_ed25519"
install -d -m 0700 "$rootfs/root/.ssh"
install -m 0600 "$work/id_ed25519.pub" "$rootfs/root/.ssh/authorized_keys"

in_root systemctl enable systemd-networkd.service >/dev/null 2>&1
# nothing may reach for the network (there is none) or wake up in the middle of a measurement
for unit in apt-daily.timer apt-daily-upgrade.timer apt-daily.service apt-daily-upgrade.service \
  e2scrub_all.timer e2scrub_reap.service fstrim.timer man-db.timer dpkg-db-backup.timer \
  systemd-timesyncd.service systemd-networkd-wait-online.service iperf3.service \
  systemd-resolved.service systemd-tmpfiles-clean.timer; do
  in_root systemctl mask "$unit" >/dev/null 2>&1
done

# a small initrd with what qemu's disks need: boots quicker under software emulation
cat >"$rootfs/etc/initramfs-tools/conf.d/virtbench-lab.conf" <<'INITRD'
MODULES=list
COMPRESS=gzip
INITRD
cat >"$rootfs/etc/initramfs-tools/modules" <<'MODULES'
virtio_pci
virtio_blk
virtio_scsi
virtio_net
sd_mod
ahci
ata_piix
ata_generic
ext4
crc32c_generic
MODULES
in_root update-initramfs -u -k all >/dev/null

kernel=$(ls "$rootfs"/boot/vmlinuz-* | sort -V | tail -n 1)
initrd=$(ls "$rootfs"/boot/initrd.img-* | sort -V | tail -n 1)
cp "$kernel" "$work/vmlinuz"
cp "$initrd" "$work/initrd.img"
echo "${kernel##*/vmlinuz-}" >"$work/kernel-release"

# smaller image: package caches and documentation are not needed in a guest that measures
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
  "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/locale/*

say "root disk ($root_size, ext4 made with mkfs.ext4 -d)"
mkfs.ext4 -q -F -L vbroot -E lazy_itable_init=0,lazy_journal_init=0 -d "$rootfs" "$work/root.img" "$root_size"

say "data disk template ($data_size qcow2, ext4)"
mkfs.ext4 -q -F -L vbdata -E lazy_itable_init=0,lazy_journal_init=0 "$work/data.raw" "$data_size"
qemu-img convert -q -f raw -O qcow2 "$work/data.raw" "$work/data.qcow2"
rm -f "$work/data.raw"

rm -rf "$rootfs"
mv "$work" "$out"
say "done: $out"
