import { ToolArchiveError, archiveTools, checkToolArchives, describeToolArchive } from '../engine/tool-archives'
import type { ToolArchive } from '../tools/provision'
import { ApiError } from './api-error'
import type { Handlers } from './dispatch'

export type ToolArchiveHandlerNames = 'tools:archives' | 'tools:checkArchive' | 'tools:chooseArchive'

export interface ToolArchiveServices {
  /** The desktop's open-file dialog (Electron); absent in `virtbench serve`, where the path is typed. */
  chooseFile?: (title: string) => Promise<string | undefined>
}

/** A file the admin gave that cannot be used, as the request's field it concerns (`toolArchives.0.path`, or `path` for one file). */
export function toolArchiveApiError(error: unknown, prefix = ''): never {
  if (!(error instanceof ToolArchiveError)) throw error
  throw new ApiError('invalid-request', error.message, [{ path: `${prefix}${error.field}`, message: error.message }])
}

/**
 * The files of a run's tools, checked on this computer (as the CLI's --tool-archive), for runs:start
 * and plans:preflight; the issue names the entry (`toolArchives.1.path`).
 */
export async function checkedToolArchives(archives: readonly ToolArchive[] | undefined): Promise<ToolArchive[]> {
  if (!archives || archives.length === 0) return []
  try {
    return await checkToolArchives(archives)
  } catch (error) {
    const index = error instanceof ToolArchiveError ? Math.max(0, archives.findIndex((a) => a.tool === error.tool)) : 0
    return toolArchiveApiError(error, `toolArchives.${index}.`)
  }
}

/** Tools brought from this computer (docs/tools-offline.md): what can come, a file checked, the desktop's file dialog. */
export function createToolArchiveHandlers(svc: ToolArchiveServices): Pick<Handlers, ToolArchiveHandlerNames> {
  return {
    'tools:archives': () => ({ tools: archiveTools() }),
    'tools:checkArchive': async (archive) => {
      const described = await describeToolArchive(archive).catch((error: unknown) => toolArchiveApiError(error))
      return { ...described, tool: archive.tool }
    },
    'tools:chooseArchive': async ({ tool }) => {
      if (!svc.chooseFile) throw new ApiError('unavailable', 'There is no file dialog in the browser: type the absolute path of the file on the computer that runs virtbench serve.')
      const name = archiveTools().find((t) => t.tool === tool)?.name ?? tool
      const file = await svc.chooseFile(`The ${name} source archive or program`)
      return file ? { path: file } : {}
    }
  }
}
