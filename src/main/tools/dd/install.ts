import type { InstallRecipe } from '../types'

const BUSYBOX_NOTE =
  'BusyBox dd (the default on Alpine and other small images) often prints only record counts; VirtBench then needs a timer (timer: bash or gnu-time). GNU coreutils dd reports bytes and seconds itself.'

export const ddInstall: readonly InstallRecipe[] = [
  { kind: 'package', manager: 'apt', packages: ['coreutils'], note: 'Installed on every Debian and Ubuntu system; the `time` package gives /usr/bin/time for timer gnu-time.' },
  { kind: 'package', manager: 'dnf', packages: ['coreutils'], note: 'Installed on every Fedora and RHEL-family system; the `time` package gives /usr/bin/time.' },
  { kind: 'package', manager: 'yum', packages: ['coreutils'], note: 'Installed on every CentOS/RHEL 7 system; the `time` package gives /usr/bin/time.' },
  { kind: 'package', manager: 'zypper', packages: ['coreutils'], note: 'Installed on every openSUSE and SLES system; the `time` package gives /usr/bin/time.' },
  { kind: 'package', manager: 'apk', packages: ['coreutils'], note: BUSYBOX_NOTE }
]
