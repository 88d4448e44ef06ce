#!/bin/sh
# Runs libvirtd for the lab, as root, in a private mount namespace where libvirt's system
# directories are the lab's own: nothing of the machine's /etc, /run or /var is written, and a
# libvirt already installed and running on the machine is neither seen nor disturbed.
#
#   libvirtd-sandbox.sh STATE_DIR
#
# STATE_DIR/etc holds libvirtd.conf and qemu.conf (written by lab/libvirt-config.ts); run, lib,
# log and cache become /run/libvirt, /var/lib/libvirt, /var/log/libvirt and /var/cache/libvirt.
# The socket is STATE_DIR/run/libvirt-sock. libvirtd stays in the foreground with the PID this
# script was started with (unshare and sh exec, they do not fork).
set -eu
state=$1
for d in etc run lib log cache; do mkdir -p "$state/$d"; done
exec unshare --mount --propagation private -- /bin/sh "$(dirname "$0")/libvirtd-namespace.sh" "$state"
