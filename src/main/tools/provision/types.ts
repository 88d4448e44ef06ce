/**
 * How a tool that is built from source reaches a target without internet: the admin brings its
 * source archive (or a program built for the target) on this computer; VirtBench checks its
 * SHA-256, uploads it over SFTP, builds it there with the target's compiler and keeps the result
 * in a cache named by the checksum, so the next run finds it (docs/tools-offline.md).
 */

/** A release VirtBench knows by its SHA-256: an archive with exactly this content is that release. */
export interface PinnedRelease {
  /** The archive's usual file name. */
  file: string
  /** Lower-case hex. */
  sha256: string
  /** Which release it is and where it is published. */
  release: string
}

/** How one tool is built from its source archive on the target. */
export interface SourceBuild {
  /** A file that marks the folder to build in (the shallowest one in the archive): `iozone.c`, `Run`. */
  marker: string
  /** make's arguments for the target's machine (`uname -m`: x86_64, aarch64...). */
  makeArgs(machine: string): string[]
  /**
   * What the plans use afterwards: one program, copied to `<cache>/bin/<file>` (a program the
   * admin brings goes there too), or the whole built folder (UnixBench's ./Run needs its folder).
   */
  result: { kind: 'program'; file: string } | { kind: 'folder' }
  /** Source archives of the known releases. */
  releases: readonly PinnedRelease[]
  /** The packages that bring the compiler and make, per package manager, for the fix of a failed build. */
  buildTools: string
}
