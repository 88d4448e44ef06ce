import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import type { Readable, Writable } from 'node:stream'
import { contentSecurityPolicy } from '../../shared/csp'
import { PAPER_MM, REPORT_GLOBAL, type ReportInput, type ReportRendered } from '../../shared/report'
import { readStaticFile } from '../fs/static-files'

/**
 * Prints the report page with a Chromium found on the system (`virtbench report`, and
 * `virtbench serve` when the UI asks for a PDF): the built renderer is served on a loopback port
 * for the page's module scripts, the browser runs headless with its DevTools protocol on a pipe
 * (no debugging port is opened), and Page.printToPDF makes the file once the page says it has
 * drawn everything. The same page the desktop app prints with webContents.printToPDF.
 */

export class ReportPrintError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ReportPrintError'
  }
}

export interface PrintResult {
  pdf: Buffer
  rendered: ReportRendered
  /** Where the time went, in milliseconds (npm run bench:report prints them); the app's window does not say. */
  timings?: PrintTimings
}

export interface PrintTimings {
  /** From spawning the browser to a page attached to the DevTools pipe. */
  browser: number
  /** Loading report.html and its scripts, styles and fonts. */
  load: number
  /** Drawing the run (React, the charts) until the page is still and its fonts are loaded. */
  render: number
  /** Page.printToPDF: layout into pages and the PDF itself. */
  print: number
}

interface Pending {
  resolve(value: Record<string, unknown>): void
  reject(error: Error): void
}

/** The DevTools protocol over --remote-debugging-pipe: JSON messages separated by NUL bytes. */
class PipeConnection {
  private nextId = 1
  private buffer = Buffer.alloc(0)
  private readonly pending = new Map<number, Pending>()
  private readonly listeners = new Set<(message: { method: string; params?: Record<string, unknown>; sessionId?: string }) => void>()
  private closed: Error | undefined

  constructor(
    private readonly out: Writable,
    input: Readable
  ) {
    input.on('data', (chunk: Buffer) => this.receive(chunk))
    input.on('close', () => this.fail(new ReportPrintError('The browser closed its DevTools pipe (it exited or crashed).')))
    out.on('error', () => undefined)
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk])
    let end: number
    while ((end = this.buffer.indexOf(0)) >= 0) {
      const text = this.buffer.subarray(0, end).toString('utf8')
      this.buffer = this.buffer.subarray(end + 1)
      let message: { id?: number; result?: Record<string, unknown>; error?: { message?: string }; method?: string; params?: Record<string, unknown>; sessionId?: string }
      try {
        message = JSON.parse(text) as typeof message
      } catch {
        continue
      }
      if (message.id !== undefined) {
        const pending = this.pending.get(message.id)
        if (!pending) continue
        this.pending.delete(message.id)
        if (message.error) pending.reject(new ReportPrintError(`The browser refused ${String(message.error.message ?? 'a command')}.`))
        else pending.resolve(message.result ?? {})
      } else if (message.method) {
        for (const listener of this.listeners) listener({ method: message.method, params: message.params, sessionId: message.sessionId })
      }
    }
  }

  fail(error: Error): void {
    if (this.closed) return
    this.closed = error
    for (const p of this.pending.values()) p.reject(error)
    this.pending.clear()
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    if (this.closed) return Promise.reject(this.closed)
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.out.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`)
    })
  }

  once(method: string, sessionId: string): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      const listener = (m: { method: string; params?: Record<string, unknown>; sessionId?: string }): void => {
        if (m.method !== method || m.sessionId !== sessionId) return
        this.listeners.delete(listener)
        resolve(m.params ?? {})
      }
      this.listeners.add(listener)
    })
  }
}

/** The built renderer on 127.0.0.1, read-only, with the app's CSP; only GET, only what exists. */
async function serveRenderer(rendererDir: string): Promise<{ url: string; close(): Promise<void> }> {
  const csp = contentSecurityPolicy()
  const server = http.createServer((req, res) => {
    void (async () => {
      if (req.method !== 'GET') {
        res.writeHead(405).end()
        return
      }
      const file = await readStaticFile(rendererDir, new URL(req.url ?? '/', 'http://127.0.0.1').pathname)
      if (!file) {
        res.writeHead(404).end()
        return
      }
      res.writeHead(200, { 'Content-Type': file.contentType, 'Content-Security-Policy': csp, 'Cache-Control': 'no-store' })
      res.end(file.body)
    })()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/report.html`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ReportPrintError(`${what} took longer than ${Math.round(ms / 1000)} s; the browser was stopped.`)), ms)
    })
  ]).finally(() => clearTimeout(timer))
}

/** Headless, no first-run, no network: the page is served from loopback and needs nothing else. */
export function browserArgs(userDataDir: string, runningAsRoot: boolean): string[] {
  return [
    '--headless',
    ...(runningAsRoot ? ['--no-sandbox'] : []),
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-extensions',
    '--disable-default-apps',
    '--no-first-run',
    '--no-default-browser-check',
    '--mute-audio',
    '--remote-debugging-pipe',
    `--user-data-dir=${userDataDir}`,
    'about:blank'
  ]
}

async function stopBrowser(child: ChildProcess, connection: PipeConnection): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await Promise.race([connection.send('Browser.close').catch(() => undefined), new Promise((r) => setTimeout(r, 2000))])
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
  await exited
  clearTimeout(timer)
}

export async function printWithChromium(options: {
  browser: string
  /** The built renderer (out/renderer), holding report.html. */
  rendererDir: string
  input: ReportInput
  timeoutMs?: number
}): Promise<PrintResult> {
  const timeoutMs = options.timeoutMs ?? 120_000
  const profile = mkdtempSync(path.join(os.tmpdir(), 'virtbench-report-'))
  const site = await serveRenderer(options.rendererDir)
  const spawned = performance.now()
  const child = spawn(options.browser, browserArgs(profile, process.getuid?.() === 0), { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (c: Buffer) => {
    if (stderr.length < 8000) stderr += c.toString()
  })
  const connection = new PipeConnection(child.stdio[3] as Writable, child.stdio[4] as Readable)
  const started = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new ReportPrintError(`Could not start ${options.browser}: ${error.message}`)))
    child.once('exit', (code, signal) => {
      const tail = stderr.trim().split('\n').slice(-3).join(' ')
      const error = new ReportPrintError(`The browser (${options.browser}) exited before the PDF was made (${signal ?? `exit ${code}`})${tail ? `: ${tail}` : ''}.`)
      connection.fail(error)
      reject(error)
    })
  })
  started.catch(() => undefined)
  try {
    return await withTimeout(Promise.race([print(connection, site.url, options.input, spawned), started]), timeoutMs, 'Printing the report')
  } finally {
    await stopBrowser(child, connection).catch(() => undefined)
    await site.close()
    rmSync(profile, { recursive: true, force: true, maxRetries: 3 })
  }
}

async function print(connection: PipeConnection, url: string, input: ReportInput, spawned: number): Promise<PrintResult> {
  const { targetId } = (await connection.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string }
  const { sessionId } = (await connection.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string }
  await connection.send('Page.enable', {}, sessionId)
  await connection.send('Runtime.enable', {}, sessionId)
  const attached = performance.now()
  const loaded = connection.once('Page.loadEventFired', sessionId)
  const nav = (await connection.send('Page.navigate', { url }, sessionId)) as { errorText?: string }
  if (nav.errorText) throw new ReportPrintError(`The report page did not load (${nav.errorText}).`)
  await loaded
  const load = performance.now()
  const evaluated = (await connection.send(
    'Runtime.evaluate',
    { expression: `window.${REPORT_GLOBAL}.render(${JSON.stringify(input)})`, awaitPromise: true, returnByValue: true },
    sessionId
  )) as { result?: { value?: ReportRendered }; exceptionDetails?: { exception?: { description?: string }; text?: string } }
  if (evaluated.exceptionDetails) {
    const why = evaluated.exceptionDetails.exception?.description ?? evaluated.exceptionDetails.text ?? 'unknown error'
    throw new ReportPrintError(`The report page could not draw the run: ${why.split('\n')[0]}`)
  }
  const rendered = evaluated.result?.value
  if (!rendered) throw new ReportPrintError('The report page did not say it had drawn the run.')
  const drawn = performance.now()
  const paper = PAPER_MM[input.options.paper]
  const { data } = (await connection.send(
    'Page.printToPDF',
    {
      printBackground: true,
      preferCSSPageSize: true,
      paperWidth: paper.width / 25.4,
      paperHeight: paper.height / 25.4,
      displayHeaderFooter: false,
      generateDocumentOutline: true,
      generateTaggedPDF: true
    },
    sessionId
  )) as { data: string }
  const printed = performance.now()
  return {
    pdf: Buffer.from(data, 'base64'),
    rendered,
    timings: { browser: attached - spawned, load: load - attached, render: drawn - load, print: printed - drawn }
  }
}
