import type { InstallRecipe } from '../types'

export const pingInstall: readonly InstallRecipe[] = [
  { kind: 'package', manager: 'apt', packages: ['iputils-ping'], note: 'Minimal Debian and Ubuntu images (containers, cloud images) may lack it.' },
  { kind: 'package', manager: 'dnf', packages: ['iputils'] },
  { kind: 'package', manager: 'yum', packages: ['iputils'] },
  { kind: 'package', manager: 'zypper', packages: ['iputils'] },
  {
    kind: 'package',
    manager: 'apk',
    packages: ['iputils'],
    note: "Alpine's default ping is BusyBox's, which VirtBench reads too but which prints no mdev; iputils adds it."
  }
]
