/** Linux errno values fio jobs commonly stop with, and their C library messages. */
const ERRNOS: Readonly<Record<number, readonly [name: string, message: string]>> = {
  1: ['EPERM', 'Operation not permitted'],
  2: ['ENOENT', 'No such file or directory'],
  5: ['EIO', 'Input/output error'],
  6: ['ENXIO', 'No such device or address'],
  9: ['EBADF', 'Bad file descriptor'],
  11: ['EAGAIN', 'Resource temporarily unavailable'],
  12: ['ENOMEM', 'Cannot allocate memory'],
  13: ['EACCES', 'Permission denied'],
  16: ['EBUSY', 'Device or resource busy'],
  17: ['EEXIST', 'File exists'],
  19: ['ENODEV', 'No such device'],
  20: ['ENOTDIR', 'Not a directory'],
  21: ['EISDIR', 'Is a directory'],
  22: ['EINVAL', 'Invalid argument'],
  24: ['EMFILE', 'Too many open files'],
  25: ['ENOTTY', 'Inappropriate ioctl for device'],
  27: ['EFBIG', 'File too large'],
  28: ['ENOSPC', 'No space left on device'],
  30: ['EROFS', 'Read-only file system'],
  38: ['ENOSYS', 'Function not implemented'],
  95: ['EOPNOTSUPP', 'Operation not supported'],
  110: ['ETIMEDOUT', 'Connection timed out'],
  122: ['EDQUOT', 'Disk quota exceeded']
}

/** `error 28 (ENOSPC, No space left on device)`, or `error 4242` for a number not in the table. */
export function describeErrno(errno: number): string {
  const known = ERRNOS[errno]
  return known ? `error ${errno} (${known[0]}, ${known[1]})` : `error ${errno}`
}
