import type { InstallRecipe } from '../types'

const FROM_SOURCE =
  'Or build it from http://www.iozone.org/ (src/current: make linux-AMD64; with gcc 10 or later add CC="cc -fcommon"), ' +
  'then set the iozone path of the target.'

export const iozoneInstall: readonly InstallRecipe[] = [
  {
    kind: 'package',
    manager: 'apt',
    packages: ['iozone3'],
    note: `Debian: in the non-free component (enable non-free in the APT sources); Ubuntu: in multiverse. Installs /usr/bin/iozone. ${FROM_SOURCE}`
  },
  {
    kind: 'package',
    manager: 'zypper',
    packages: ['iozone'],
    note: `openSUSE: in the NonFree repository (repo-non-oss), not the main one. ${FROM_SOURCE}`
  },
  { kind: 'package', manager: 'apk', packages: ['iozone'], note: `Alpine: in the community repository. ${FROM_SOURCE}` },
  {
    kind: 'source',
    os: 'linux',
    commands: [],
    note: `Fedora, RHEL, Rocky, Alma and CentOS (dnf, yum): no iozone package in the distribution or in EPEL as far as we know. ${FROM_SOURCE}`
  }
]
