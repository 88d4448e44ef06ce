/**
 * The line the plan prints before reading a file with cat (study 004's read form), so the
 * parser knows how many bytes were read: `stat -c 'virtbench-file-bytes: %s' ddfile`.
 */
export const FILE_BYTES_MARKER = 'virtbench-file-bytes:'

const MARKER_LINE = /^virtbench-file-bytes: ([0-9]{1,16})$/

export interface FileBytesMarker {
  bytes: number
  line: string
}

/** Every marker line in the output (the caller decides what more than one means). */
export function findFileBytesMarkers(lines: readonly string[]): FileBytesMarker[] {
  const found: FileBytesMarker[] = []
  for (const line of lines) {
    const m = MARKER_LINE.exec(line.trim())
    if (m) found.push({ bytes: Number(m[1]), line })
  }
  return found
}
