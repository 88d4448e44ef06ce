import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'
import { contentSecurityPolicy } from './src/shared/csp'

const pkg = JSON.parse(readFileSync(resolve(__dirname, 'package.json'), 'utf8')) as { version: string }
const define = { __APP_VERSION__: JSON.stringify(pkg.version) }

/** Writes the one policy of src/shared/csp.ts into index.html's <meta> tag. */
const cspMeta: Plugin = {
  name: 'virtbench-csp-meta',
  transformIndexHtml: (html, context) =>
    html.replace('__VIRTBENCH_CSP__', contentSecurityPolicy({ meta: true, dev: Boolean(context.server) }))
}

export default defineConfig({
  main: {
    define,
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/electron/index.ts'),
          cli: resolve(__dirname, 'src/cli/index.ts')
        }
      }
    }
  },
  preload: {
    define,
    build: {
      outDir: 'out/preload',
      rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } }
    }
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    define,
    plugins: [react(), cspMeta],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // a production renderer is minified (electron-vite leaves it readable by default): about a
      // third of the bytes to load and parse at every start and every PDF
      minify: true,
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/renderer/index.html'),
          // the PDF report's page (docs/export.md): printed by the app and by `virtbench report`
          report: resolve(__dirname, 'src/renderer/report.html')
        }
      }
    }
  }
})
