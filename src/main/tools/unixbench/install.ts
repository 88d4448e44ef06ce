import type { SourceBuild } from '../provision/types'
import type { InstallRecipe } from '../types'

const THEN = 'Build dependencies of UnixBench; then build UnixBench itself with the source recipe.'

/** UnixBench is not packaged; these are what its make and Run need (a C compiler, make, perl with Time::HiRes). */
export const unixbenchInstall: readonly InstallRecipe[] = [
  { kind: 'package', manager: 'apt', packages: ['git', 'make', 'gcc', 'perl'], buildsFromSource: true, note: `${THEN} Time::HiRes is part of Debian's perl.` },
  { kind: 'package', manager: 'dnf', packages: ['git', 'make', 'gcc', 'perl', 'perl-Time-HiRes'], buildsFromSource: true, note: THEN },
  {
    kind: 'package',
    manager: 'yum',
    packages: ['git', 'make', 'gcc', 'autoconf', 'gcc-c++', 'time', 'perl-Time-HiRes'],
    buildsFromSource: true,
    note: `${THEN} The list of study 001 (CentOS), plus make.`
  },
  { kind: 'package', manager: 'zypper', packages: ['git', 'make', 'gcc', 'perl'], buildsFromSource: true, note: `${THEN} Time::HiRes is part of openSUSE's perl.` },
  { kind: 'package', manager: 'apk', packages: ['git', 'make', 'gcc', 'musl-dev', 'perl'], buildsFromSource: true, note: `${THEN} Not tried on Alpine (musl).` },
  {
    kind: 'source',
    os: 'linux',
    commands: ['git clone https://github.com/kdlucas/byte-unixbench.git "$HOME/byte-unixbench"', 'make -C "$HOME/byte-unixbench/UnixBench"'],
    note:
      'BYTE UNIX Benchmarks from GitHub into ~/byte-unixbench (the default UnixBench folder of the plan). ./Run also runs make itself. ' +
      'The default build uses -march=native, so build it on the machine that runs it.'
  }
]

/**
 * Building UnixBench from a source archive on a target without internet (src/main/tools/provision/):
 * `make` in the folder that holds ./Run (UnixBench/ of a byte-unixbench archive, from GitHub or a
 * release); the plans use that whole folder, as they use ~/byte-unixbench/UnixBench. No release is
 * pinned: the admin gives the archive's SHA-256, or VirtBench records it in the run.
 */
export const unixbenchSourceBuild: SourceBuild = {
  marker: 'Run',
  makeArgs: () => [],
  result: { kind: 'folder' },
  releases: [],
  buildTools: 'gcc, make and perl (Debian, Ubuntu: apt-get install gcc make perl; Fedora, RHEL: dnf install gcc make perl perl-Time-HiRes)'
}
