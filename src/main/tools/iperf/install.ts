import type { InstallRecipe } from '../types'

const REVERSE = 'One-way tests towards the client (-R) need iperf 2.1 or later on both machines; -r (both ways, study 000) works with 2.0 too.'

export const iperfInstall: readonly InstallRecipe[] = [
  {
    kind: 'package',
    manager: 'apt',
    packages: ['iperf'],
    note: `The package named iperf is iperf 2 (Debian 12 ships 2.1.8, Debian 11 2.0.14a); iperf3 is a separate tool and package. ${REVERSE}`
  },
  { kind: 'package', manager: 'dnf', packages: ['iperf'], note: 'In Fedora\'s own repositories; on RHEL 8/9 and their rebuilds it comes from EPEL (dnf install epel-release first).' },
  { kind: 'package', manager: 'yum', packages: ['iperf'], note: 'On CentOS/RHEL 7 it comes from EPEL (yum install epel-release first).' },
  {
    kind: 'package',
    manager: 'zypper',
    packages: ['gcc', 'gcc-c++', 'make', 'curl'],
    buildsFromSource: true,
    note: "openSUSE and SLE have no iperf 2 in their main repositories (their package named iperf is iperf3): these are the tools to build it with the source recipe."
  },
  { kind: 'package', manager: 'apk', packages: ['iperf'], note: "In Alpine's community repository; iperf3 is the separate iperf3 package." },
  {
    kind: 'source',
    os: 'linux',
    commands: [
      'curl -fL -o iperf-2.1.9.tar.gz https://sourceforge.net/projects/iperf2/files/iperf-2.1.9.tar.gz/download',
      'tar xzf iperf-2.1.9.tar.gz',
      'cd iperf-2.1.9 && ./configure && make && make install'
    ],
    note: "iperf 2's own sources (SourceForge, iperf2 project), for distributions without a package; needs a C and C++ compiler and make. make install puts iperf into /usr/local/bin and needs root."
  }
]
