import type { InstallRecipe } from '../types'

export const stressNgInstall: readonly InstallRecipe[] = [
  { kind: 'package', manager: 'apt', packages: ['stress-ng'], note: 'Debian and Ubuntu (universe): Debian 12 ships 0.15.06, Ubuntu 22.04 0.13.12.' },
  {
    kind: 'package',
    manager: 'dnf',
    packages: ['stress-ng'],
    note: 'Fedora, and RHEL 8 or later with its rebuilds (AppStream); where the enabled repositories lack it, EPEL has it: dnf install epel-release first.'
  },
  { kind: 'package', manager: 'yum', packages: ['stress-ng'], note: 'From EPEL on CentOS/RHEL 7: yum install epel-release first.' },
  { kind: 'package', manager: 'zypper', packages: ['stress-ng'], note: 'openSUSE Leap and Tumbleweed; on SLES it comes from SUSE Package Hub.' },
  { kind: 'package', manager: 'apk', packages: ['stress-ng'], note: "Alpine's community repository." }
]
