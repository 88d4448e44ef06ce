import type { SourceBuild } from '../provision/types'
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

/**
 * Building iozone from its source archive on a target without internet (src/main/tools/provision/):
 * in the folder that holds iozone.c (src/current of the upstream tarball), `make <system>` with
 * CC="cc -fcommon" (gcc 10 and later refuse its duplicate `junk` symbol otherwise); the program is
 * `iozone` in that folder.
 */
export const iozoneSourceBuild: SourceBuild = {
  marker: 'iozone.c',
  makeArgs: (machine) => [IOZONE_MAKE_TARGETS[machine] ?? 'linux', 'CC=cc -fcommon'],
  result: { kind: 'program', file: 'iozone' },
  releases: [
    {
      file: 'iozone3_489.orig.tar.gz',
      sha256: '48f56ab4ef3e2883d98faa1f1203f55d7569f6f06beaa61803e113bd9de0ad2e',
      release: "IOzone 3.489, the upstream tarball as Debian's iozone3 489-1 source package (non-free) ships it (apt-get source --download-only iozone3)"
    }
  ],
  buildTools: 'gcc and make (Debian, Ubuntu: apt-get install gcc make; Fedora, RHEL: dnf install gcc make)'
}

/** iozone's makefile names its Linux builds by processor; plain `linux` builds on any. */
const IOZONE_MAKE_TARGETS: Readonly<Record<string, string>> = {
  x86_64: 'linux-AMD64',
  aarch64: 'linux-arm',
  ppc64le: 'linux-powerpc64',
  s390x: 'linux-S390X'
}
