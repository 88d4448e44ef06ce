import type { VirtbenchPreloadApi } from '../shared/contract'

declare global {
  interface Window {
    /** Present in the desktop app (preload); absent in a browser served by `virtbench serve`. */
    virtbench?: VirtbenchPreloadApi
  }
}
