/** I/O engines VirtBench offers. `auto` is libaio on Linux and windowsaio on Windows. */
export const IO_ENGINES = ['auto', 'libaio', 'io_uring', 'posixaio', 'psync', 'sync', 'pvsync', 'pvsync2', 'mmap', 'falloc', 'windowsaio'] as const
export type IoEngine = (typeof IO_ENGINES)[number]
export const LINUX_ONLY_ENGINES: readonly IoEngine[] = ['libaio', 'io_uring', 'posixaio', 'pvsync', 'pvsync2', 'falloc']
export const WINDOWS_ONLY_ENGINES: readonly IoEngine[] = ['windowsaio']
