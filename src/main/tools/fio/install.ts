import type { InstallRecipe } from '../types'

export const FIO_INSTALL: readonly InstallRecipe[] = [
  { kind: 'package', manager: 'apt', packages: ['fio'], note: 'Debian and Ubuntu: in the main archive.' },
  { kind: 'package', manager: 'dnf', packages: ['fio'], note: 'Fedora; RHEL, Rocky and AlmaLinux 8 and later: in AppStream.' },
  {
    kind: 'package',
    manager: 'yum',
    packages: ['fio'],
    note: "CentOS and RHEL 7: in the base repository of recent 7.x releases (fio 3.7 on 7.9); if yum cannot find it on an older release, enable EPEL first (yum install epel-release)."
  },
  {
    kind: 'package',
    manager: 'zypper',
    packages: ['fio'],
    note: 'openSUSE: in the main repository. SUSE Linux Enterprise: if zypper cannot find it, enable SUSE Package Hub.'
  },
  { kind: 'package', manager: 'apk', packages: ['fio'], note: 'Alpine: in the community repository (enable it in /etc/apk/repositories).' },
  {
    kind: 'download',
    os: 'windows',
    url: 'https://github.com/axboe/fio/releases',
    note: "fio's own Windows installer: download fio-<version>-x64.msi from the assets of the latest release and run it as an administrator; it installs C:\\Program Files\\fio\\fio.exe and adds that folder to the system PATH."
  }
]
