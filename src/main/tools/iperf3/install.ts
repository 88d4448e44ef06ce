import type { InstallRecipe } from '../types'

const BIDIR = '--bidir needs iperf3 3.7 or later on both machines.'

export const iperf3Install: readonly InstallRecipe[] = [
  {
    kind: 'package',
    manager: 'apt',
    packages: ['iperf3'],
    note: `Debian 12 ships 3.12, Ubuntu 22.04 3.9, Debian 10 3.6 (no --bidir). The package asks whether to start an iperf3 daemon at boot: answer no, VirtBench starts its own server. ${BIDIR}`
  },
  { kind: 'package', manager: 'dnf', packages: ['iperf3'], note: 'In the base repositories of Fedora and RHEL 8/9 (AppStream) and their rebuilds.' },
  {
    kind: 'package',
    manager: 'yum',
    packages: ['iperf3'],
    note: `CentOS/RHEL 7 ship iperf3 3.1.7, which runs VirtBench's plans except --bidir. ${BIDIR}`
  },
  { kind: 'package', manager: 'zypper', packages: ['iperf'], note: "openSUSE's and SLE's package named iperf is iperf3 (it installs /usr/bin/iperf3)." },
  { kind: 'package', manager: 'apk', packages: ['iperf3'] },
  {
    kind: 'download',
    os: 'windows',
    url: 'https://github.com/ar51an/iperf3-win-builds/releases',
    note:
      'Current iperf3 releases built for 64-bit Windows: unzip iperf3.exe and its DLL into a folder on PATH (or set the tool path for the target). The builds on iperf.fr stop at 3.1.3, which lacks --forceflush (3.1.5), used by the server step, and --bidir (3.7); use them only on a client with a current server elsewhere. Allow iperf3.exe through Windows Defender Firewall on the machine that runs the server.'
  }
]
