import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readStaticFile } from '../../../../src/main/fs/static-files'

const INDEX = '<!doctype html><title>VirtBench</title>\n'
const APP_JS = 'console.log("app")\n'

let base: string
let root: string

beforeEach(async () => {
  // base/renderer is the served root; base/secret.txt and base/renderer-private/ sit beside it.
  base = await fs.mkdtemp(path.join(os.tmpdir(), 'virtbench-static-'))
  root = path.join(base, 'renderer')
  await fs.mkdir(path.join(root, 'assets'), { recursive: true })
  await fs.writeFile(path.join(root, 'index.html'), INDEX)
  await fs.writeFile(path.join(root, 'assets', 'app.js'), APP_JS)
  await fs.writeFile(path.join(root, 'assets', 'style.css'), 'body {}\n')
  await fs.writeFile(path.join(root, 'assets', 'blob.bin'), Buffer.from([0, 1, 2, 255]))
  await fs.writeFile(path.join(base, 'secret.txt'), 'top secret\n')
  await fs.mkdir(path.join(base, 'renderer-private'))
  await fs.writeFile(path.join(base, 'renderer-private', 'key.txt'), 'private key\n')
})

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true })
})

describe('readStaticFile', () => {
  it('serves index.html for /', async () => {
    const file = await readStaticFile(root, '/')
    expect(file?.contentType).toBe('text/html; charset=utf-8')
    expect(file?.body.toString('utf8')).toBe(INDEX)
  })

  it('serves files under the root with a content type from their extension', async () => {
    const js = await readStaticFile(root, '/assets/app.js')
    expect(js?.contentType).toBe('text/javascript; charset=utf-8')
    expect(js?.body.toString('utf8')).toBe(APP_JS)
    expect((await readStaticFile(root, '/assets/style.css'))?.contentType).toBe('text/css; charset=utf-8')
    expect((await readStaticFile(root, '/index.html'))?.contentType).toBe('text/html; charset=utf-8')
  })

  it('serves unknown extensions as application/octet-stream, byte for byte', async () => {
    const file = await readStaticFile(root, '/assets/blob.bin')
    expect(file?.contentType).toBe('application/octet-stream')
    expect(file?.body).toEqual(Buffer.from([0, 1, 2, 255]))
  })

  it('decodes percent-encoded names that stay inside the root', async () => {
    expect((await readStaticFile(root, '/assets/app%2Ejs'))?.body.toString('utf8')).toBe(APP_JS)
    expect((await readStaticFile(root, '/assets/../index.html'))?.body.toString('utf8')).toBe(INDEX)
  })

  it.each([
    ['plain ..', '/../secret.txt'],
    ['encoded dots', '/%2e%2e/secret.txt'],
    ['encoded slashes', '/assets/..%2f..%2fsecret.txt'],
    ['a sibling whose name starts with the root name', '/../renderer-private/key.txt'],
    ['a backslash', '/assets\\..\\..\\secret.txt'],
    ['an encoded backslash', '/..%5csecret.txt'],
    ['a NUL byte', '/a%00b'],
    ['a NUL byte before a real name', '/index.html%00.js'],
    ['a broken percent-encoding', '/%E0%A4%A'],
    ['a lone percent sign', '/100%'],
    ['a directory', '/assets'],
    ['a directory with a trailing slash', '/assets/'],
    ['the root itself', ''],
    ['a missing file', '/missing.js']
  ])('returns undefined for %s (%j)', async (_label, requestPath) => {
    expect(await readStaticFile(root, requestPath)).toBeUndefined()
  })

  it('never returns the bytes of a file outside the root, however the path is spelled', async () => {
    const attempts = ['/../secret.txt', '/%2e%2e/secret.txt', '/%2E%2E%2Fsecret.txt', '/assets/..%2f..%2fsecret.txt', '/./../secret.txt']
    const results = await Promise.all(attempts.map((attempt) => readStaticFile(root, attempt)))
    expect(results).toEqual(attempts.map(() => undefined))
  })

  it('reads an absolute path in the request as relative to the root', async () => {
    const absoluteSecret = path.join(base, 'secret.txt')
    expect(await readStaticFile(root, `/${absoluteSecret}`)).toBeUndefined()
    expect(await readStaticFile(root, `/${encodeURIComponent(absoluteSecret)}`)).toBeUndefined()
    await fs.mkdir(path.join(root, 'etc'))
    await fs.writeFile(path.join(root, 'etc', 'hosts'), 'inside the root\n')
    expect((await readStaticFile(root, '//etc/hosts'))?.body.toString('utf8')).toBe('inside the root\n')
    expect((await readStaticFile(root, '/%2Fetc%2Fhosts'))?.body.toString('utf8')).toBe('inside the root\n')
  })

  it('resolves a relative root against the working directory', async () => {
    const relativeRoot = path.relative(process.cwd(), root)
    expect((await readStaticFile(relativeRoot, '/assets/app.js'))?.body.toString('utf8')).toBe(APP_JS)
    expect(await readStaticFile(relativeRoot, '/../secret.txt')).toBeUndefined()
  })
})
