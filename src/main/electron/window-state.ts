import path from 'node:path'
import { screen, type BrowserWindow } from 'electron'
import { JsonDocument } from '../store/json-document'
import { DEFAULT_WINDOW_STATE, fitToDisplays, WindowState } from '../window-bounds'

/** Remembers the main window's size, position and maximized state between launches. */
export class WindowStateKeeper {
  private readonly doc: JsonDocument<WindowState>
  private timer: NodeJS.Timeout | undefined

  constructor(dataDir: string) {
    this.doc = new JsonDocument({
      file: path.join(dataDir, 'window-state.json'),
      kind: 'virtbench.window-state',
      version: 1,
      schema: WindowState,
      defaults: () => ({ ...DEFAULT_WINDOW_STATE })
    })
  }

  async restore(): Promise<WindowState> {
    const { data } = await this.doc.load()
    const areas = screen.getAllDisplays().map((d) => d.workArea)
    return fitToDisplays(data, areas, screen.getPrimaryDisplay().workArea)
  }

  track(window: BrowserWindow): void {
    const save = (): void => {
      clearTimeout(this.timer)
      this.timer = setTimeout(() => void this.save(window), 400)
    }
    window.on('resize', save)
    window.on('move', save)
    window.on('maximize', save)
    window.on('unmaximize', save)
    window.on('close', () => {
      clearTimeout(this.timer)
      void this.save(window)
    })
  }

  private async save(window: BrowserWindow): Promise<void> {
    if (window.isDestroyed() || window.isMinimized() || window.isFullScreen()) return
    const bounds = window.getNormalBounds()
    await this.doc
      .save({ ...bounds, maximized: window.isMaximized() })
      .catch((error: unknown) => console.error(`Could not remember the window size: ${String(error)}`))
  }
}
