import { promises as fs } from 'node:fs'
import path from 'node:path'

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8'
}

export interface StaticFile {
  body: Buffer
  contentType: string
}

/**
 * Reads a file of the built renderer for a request path, or undefined when there is none.
 * The resolved path must stay inside `root`: `..`, encoded slashes and NUL bytes never escape it.
 */
export async function readStaticFile(root: string, requestPath: string): Promise<StaticFile | undefined> {
  let decoded: string
  try {
    decoded = decodeURIComponent(requestPath)
  } catch {
    return undefined
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '')
  const absoluteRoot = path.resolve(root)
  const file = path.resolve(absoluteRoot, relative)
  if (file !== absoluteRoot && !file.startsWith(absoluteRoot + path.sep)) return undefined
  try {
    const stat = await fs.stat(file)
    if (!stat.isFile()) return undefined
    return { body: await fs.readFile(file), contentType: MIME[path.extname(file)] ?? 'application/octet-stream' }
  } catch {
    return undefined
  }
}
