import { z } from 'zod'
import { PATH_LIMIT_BYTES, stringOfAtMostBytes } from './byte-limit'

/**
 * Tools that come from this computer (docs/tools-offline.md): the admin gives a source archive or
 * a program on the computer that runs VirtBench's main process (the desktop app, or `virtbench
 * serve` on loopback), and optionally its SHA-256; main checks the file, and runs:start and
 * plans:preflight carry it to the engine as the CLI's --tool-archive / --tool-sha256 do.
 */

/** The tools built from source on the targets (SOURCE_BUILDS in src/main/tools/provision). */
export const ARCHIVE_TOOLS = ['iozone', 'unixbench'] as const
export type ArchiveTool = (typeof ARCHIVE_TOOLS)[number]

/** The largest file accepted: a source archive is a few MB; UnixBench's about 0.2 MB, IOzone's about 2 MB. */
export const TOOL_ARCHIVE_MAX_BYTES = 256 * 1024 * 1024

/** A file on this computer, by its absolute path (main resolves nothing relative to its own folder). */
export const LocalFilePath = stringOfAtMostBytes(PATH_LIMIT_BYTES, 'a path')
  .min(1, 'give the path of the file on this computer')
  .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'give an absolute path (starting with /), as "Choose…" or `realpath FILE` gives it')
  .refine((p) => !p.includes('\0'), 'a path cannot contain NUL')

export const Sha256Hex = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{64}$/, 'a SHA-256 is 64 hexadecimal digits (sha256sum prints it)')

/** One tool brought from this computer: the file and, optionally, the SHA-256 it must have. */
export const ToolArchiveInputSchema = z.strictObject({
  tool: z.enum(ARCHIVE_TOOLS),
  path: LocalFilePath,
  sha256: Sha256Hex.optional()
})
export type ToolArchiveInput = z.infer<typeof ToolArchiveInputSchema>

/** The tools a run brings from this computer: at most one file per tool. */
export const ToolArchivesSchema = z
  .array(ToolArchiveInputSchema)
  .max(ARCHIVE_TOOLS.length)
  .refine((list) => new Set(list.map((a) => a.tool)).size === list.length, 'give one file per tool')

export const PinnedReleaseSchema = z.object({ file: z.string(), sha256: z.string(), release: z.string() })

export const toolArchiveInvokeContract = {
  /** The tools that can come from this computer, with the releases VirtBench pins for each (none: the checksum is recorded). */
  'tools:archives': {
    request: z.undefined(),
    response: z.object({ tools: z.array(z.object({ tool: z.enum(ARCHIVE_TOOLS), name: z.string(), releases: z.array(PinnedReleaseSchema) })) })
  },
  /**
   * Checks a file before it is used: it exists on this computer, is a file, is readable, is not
   * larger than TOOL_ARCHIVE_MAX_BYTES; then its SHA-256 and how it is trusted. A file that cannot
   * be used is an `invalid-request` whose issue names the field (`path` or `sha256`).
   */
  'tools:checkArchive': {
    request: ToolArchiveInputSchema,
    response: z.object({
      tool: z.enum(ARCHIVE_TOOLS),
      path: z.string(),
      bytes: z.number().int().nonnegative(),
      sha256: z.string(),
      /** A program (ELF) is uploaded as is; anything else is unpacked and built. */
      program: z.boolean(),
      /** pinned: a release VirtBench knows; given: matches the SHA-256 given; recorded: neither, the run records its checksum. */
      trust: z.enum(['pinned', 'given', 'recorded']),
      release: z.string().optional()
    })
  },
  /** Opens the desktop's file dialog (the app only; `serve` answers `unavailable`: type the path). */
  'tools:chooseArchive': {
    request: z.strictObject({ tool: z.enum(ARCHIVE_TOOLS) }),
    response: z.object({ path: z.string().optional() })
  }
} as const
