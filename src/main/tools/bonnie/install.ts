import type { InstallRecipe } from '../types'

const SBIN = 'Installs /usr/sbin/bonnie++ (not on a normal user\'s PATH; VirtBench adds /usr/sbin itself).'

export const bonnieInstall: readonly InstallRecipe[] = [
  { kind: 'package', manager: 'apt', packages: ['bonnie++'], note: `Debian and Ubuntu main. ${SBIN}` },
  { kind: 'package', manager: 'dnf', packages: ['bonnie++'], note: `Fedora; on RHEL, Rocky and Alma it comes from EPEL (dnf install epel-release first). ${SBIN}` },
  { kind: 'package', manager: 'yum', packages: ['bonnie++'], note: 'CentOS/RHEL 7: from EPEL (yum install epel-release first).' },
  {
    kind: 'package',
    manager: 'zypper',
    packages: ['bonnie++'],
    note: 'openSUSE: package name as in the benchmark repositories; not verified which openSUSE release ships it in the main repository.'
  },
  { kind: 'package', manager: 'apk', packages: ['bonnie++'], note: 'Alpine: not verified that a bonnie++ package exists in main or community.' }
]
