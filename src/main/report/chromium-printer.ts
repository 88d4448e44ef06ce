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
 * drawn everything. The browser starts and loads the page before the run is given, so the CLI
 * reads the run meanwhile (startChromiumPrinter). The same page the desktop app prints with
 * webContents.printToPDF.
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
  /** The drawn page as static HTML (PrinterOptions.snapshot). */
  snapshot?: string
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

export interface PrinterOptions {
  browser: string
  /** The built renderer (out/renderer), holding report.html. */
  rendererDir: string
  /** For print(): the page loaded (when it is not yet), drawn and printed (default 120 s). */
  timeoutMs?: number
  /**
   * Also return the drawn page as static HTML: its DOM and styles, no scripts (npm run
   * bench:report prints it with Chromium alone, the peer a report of that size is measured against).
   */
  snapshot?: boolean
}

/** A browser with the report page loaded, waiting for the run to draw and print. */
export interface ChromiumPrinter {
  /** Draws `input` on the page and prints it (once per printer). */
  print(input: ReportInput): Promise<PrintResult>
  /** Stops the browser and the page's server and removes the browser's profile; safe to call again. */
  close(): Promise<void>
}

/**
 * Starts the browser and loads the report page at once, so that `virtbench report` can read and
 * compare the run meanwhile; print() then only draws and prints. The caller must close() it,
 * whatever happens.
 */
export function startChromiumPrinter(options: PrinterOptions): ChromiumPrinter {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'virtbench-report-'))
  let fail: (error: Error) => void = () => undefined
  const exited = new Promise<never>((_, reject) => (fail = reject))
  exited.catch(() => undefined)
  const launched = serveRenderer(options.rendererDir).then((site) => launch(options.browser, profile, site, fail))
  launched.catch(fail)
  const loaded = launched.then((b) => openReportPage(b.connection, b.site.url, b.spawned))
  loaded.catch(() => undefined)
  let closing: Promise<void> | undefined
  return {
    print: (input) =>
      withTimeout(
        Promise.race([Promise.all([launched, loaded]).then(([b, page]) => drawAndPrint(b.connection, page, input, options.snapshot === true)), exited]),
        options.timeoutMs ?? 120_000,
        'Printing the report'
      ),
    close: () =>
      (closing ??= (async () => {
        const b = await launched.catch(() => undefined)
        if (b) {
          await stopBrowser(b.child, b.connection).catch(() => undefined)
          await b.site.close()
        }
        rmSync(profile, { recursive: true, force: true, maxRetries: 3 })
      })())
  }
}

interface Launched {
  child: ChildProcess
  connection: PipeConnection
  site: Awaited<ReturnType<typeof serveRenderer>>
  spawned: number
}

/** Spawns the browser with its DevTools pipe; `fail` hears of it exiting (or not starting) before it is stopped. */
function launch(browser: string, profile: string, site: Launched['site'], fail: (error: Error) => void): Launched {
  const spawned = performance.now()
  const child = spawn(browser, browserArgs(profile, process.getuid?.() === 0), { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (c: Buffer) => {
    if (stderr.length < 8000) stderr += c.toString()
  })
  const connection = new PipeConnection(child.stdio[3] as Writable, child.stdio[4] as Readable)
  child.once('error', (error) => fail(new ReportPrintError(`Could not start ${browser}: ${error.message}`)))
  child.once('exit', (code, signal) => {
    const tail = stderr.trim().split('\n').slice(-3).join(' ')
    const error = new ReportPrintError(`The browser (${browser}) exited before the PDF was made (${signal ?? `exit ${code}`})${tail ? `: ${tail}` : ''}.`)
    connection.fail(error)
    fail(error)
  })
  return { child, connection, site, spawned }
}

/** Starts a browser, prints `input` and stops it (`virtbench serve`, which prints a run at a time). */
export async function printWithChromium(options: PrinterOptions & { input: ReportInput }): Promise<PrintResult> {
  const printer = startChromiumPrinter(options)
  try {
    return await printer.print(options.input)
  } finally {
    await printer.close()
  }
}

/** The report page, loaded in a new tab, with when its browser was attached and the page loaded. */
interface ReportPage {
  sessionId: string
  spawned: number
  attached: number
  loaded: number
}

async function openReportPage(connection: PipeConnection, url: string, spawned: number): Promise<ReportPage> {
  const { targetId } = (await connection.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string }
  const { sessionId } = (await connection.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string }
  await connection.send('Page.enable', {}, sessionId)
  await connection.send('Runtime.enable', {}, sessionId)
  const attached = performance.now()
  const loaded = connection.once('Page.loadEventFired', sessionId)
  const nav = (await connection.send('Page.navigate', { url }, sessionId)) as { errorText?: string }
  if (nav.errorText) throw new ReportPrintError(`The report page did not load (${nav.errorText}).`)
  await loaded
  return { sessionId, spawned, attached, loaded: performance.now() }
}

/**
 * The page as drawn, as a static document: no scripts, no CSP (the constructed stylesheet of the
 * paper size becomes a <style>, which the app's CSP would refuse), asset URLs as they were.
 */
const SNAPSHOT = `(() => {
  const root = document.documentElement.cloneNode(true)
  for (const el of root.querySelectorAll('script, link[rel=modulepreload], meta[http-equiv]')) el.remove()
  const style = document.createElement('style')
  style.textContent = document.adoptedStyleSheets.map((s) => [...s.cssRules].map((r) => r.cssText).join('\\n')).join('\\n')
  root.querySelector('head').append(style)
  return '<!doctype html>' + root.outerHTML
})()`

async function drawAndPrint(connection: PipeConnection, page: ReportPage, input: ReportInput, snapshot: boolean): Promise<PrintResult> {
  const { sessionId } = page
  // the run is drawn from here (a page that loaded before the run was read has waited for it)
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
  const html = snapshot ? ((await connection.send('Runtime.evaluate', { expression: SNAPSHOT, returnByValue: true }, sessionId)) as { result?: { value?: string } }).result?.value : undefined
  return {
    pdf: Buffer.from(data, 'base64'),
    rendered,
    timings: { browser: page.attached - page.spawned, load: page.loaded - page.attached, render: drawn - load, print: printed - drawn },
    ...(html !== undefined ? { snapshot: html } : {})
  }
}
