import type { InstallRecipe } from '../types'

export const sysbenchInstall: readonly InstallRecipe[] = [
  { kind: 'package', manager: 'apt', packages: ['sysbench'], note: 'Debian and Ubuntu (universe).' },
  {
    kind: 'package',
    manager: 'dnf',
    packages: ['sysbench'],
    note: 'In Fedora itself; on RHEL, CentOS Stream, Rocky and AlmaLinux it comes from EPEL: dnf install epel-release first.'
  },
  { kind: 'package', manager: 'yum', packages: ['sysbench'], note: 'From EPEL on CentOS/RHEL 7: yum install epel-release first.' },
  {
    kind: 'package',
    manager: 'zypper',
    packages: ['sysbench'],
    note: 'openSUSE Leap and Tumbleweed; on SLES it comes from SUSE Package Hub or the openSUSE benchmark repository.'
  },
  { kind: 'package', manager: 'apk', packages: ['sysbench'], note: "Alpine's community repository." }
]
