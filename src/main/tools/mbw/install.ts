import type { InstallRecipe } from '../types'

const NOT_PACKAGED =
  'mbw is not in this distribution\'s main repositories (as far as we know); these are the tools to build it from source with the "source" recipe, as study 001 does.'

export const mbwInstall: readonly InstallRecipe[] = [
  {
    kind: 'package',
    manager: 'apt',
    packages: ['mbw'],
    note: 'Debian and Ubuntu (universe). Debian 12 and Ubuntu 24.04 ship mbw 1.2.2, which swaps the MEMCPY and DUMB labels (fixed in mbw 1.4); VirtBench warns about it.'
  },
  { kind: 'package', manager: 'dnf', packages: ['gcc', 'make', 'git'], buildsFromSource: true, note: `${NOT_PACKAGED} On RHEL-family systems, check EPEL first (dnf install epel-release; dnf install mbw).` },
  { kind: 'package', manager: 'yum', packages: ['gcc', 'make', 'git'], buildsFromSource: true, note: `${NOT_PACKAGED} On CentOS/RHEL 7, check EPEL first (yum install epel-release; yum install mbw).` },
  { kind: 'package', manager: 'zypper', packages: ['gcc', 'make', 'git'], buildsFromSource: true, note: NOT_PACKAGED },
  { kind: 'package', manager: 'apk', packages: ['build-base', 'git'], buildsFromSource: true, note: NOT_PACKAGED },
  {
    kind: 'source',
    os: 'linux',
    commands: ['git clone https://github.com/raas/mbw.git mbw-src', 'make -C mbw-src', 'install -m 0755 mbw-src/mbw /usr/local/bin/mbw'],
    note: 'Upstream source (raas/mbw, as in study 001); needs a C compiler, make and git. Installing into /usr/local/bin needs root.'
  }
]
