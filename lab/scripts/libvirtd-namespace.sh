#!/bin/sh
# The inside of libvirtd-sandbox.sh: runs in the private mount namespace that script made, so
# every mount here vanishes with libvirtd.
#
#   libvirtd-namespace.sh STATE_DIR
set -eu
state=$1

# fresh, private /run and /var/{lib,log,cache}: no systemd, D-Bus or other daemon is reachable,
# so libvirt manages its qemu processes itself
for pair in run:/run lib:/var/lib log:/var/log cache:/var/cache; do
  name=${pair%%:*}
  dir=${pair#*:}
  mount -t tmpfs -o mode=0755 vb-lab-libvirt "$dir"
  mkdir -p "$dir/libvirt"
  mount --bind "$state/$name" "$dir/libvirt"
done
mount --bind "$state/etc" /etc/libvirt

# libvirt looks its built-in qemu account up before it reads qemu.conf (which says root); without
# libvirt-daemon-system that account does not exist, so this namespace sees copies of passwd and
# group that have it (the machine's own files are not changed)
for db in passwd group; do
  if ! grep -q '^libvirt-qemu:' "/etc/$db"; then
    cp "/etc/$db" "$state/$db"
    if [ "$db" = passwd ]; then
      echo 'libvirt-qemu:x:64055:64055:VirtBench lab sandbox:/var/lib/libvirt:/usr/sbin/nologin' >>"$state/$db"
    else
      echo 'libvirt-qemu:x:64055:' >>"$state/$db"
    fi
    mount --bind "$state/$db" "/etc/$db"
  fi
done

exec libvirtd --pid-file "$state/libvirtd.pid" --config "$state/etc/libvirtd.conf"
