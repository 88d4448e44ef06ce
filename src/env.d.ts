/** The app version from package.json, injected at build time (electron-vite and vitest `define`). */
declare const __APP_VERSION__: string
