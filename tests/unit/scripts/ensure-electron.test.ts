import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { downloadAdvice, failureReason, nodeVersionProblem } from '../../../scripts/ensure-electron'

const FIXTURES = path.join(__dirname, '../../fixtures/electron')

describe('npm start before building: the Node.js version and the Electron binary', () => {
  it('accepts Node.js 22.12 and newer, and names the version it has when older', () => {
    for (const ok of ['22.12.0', 'v22.12.0', '22.13.1', '23.0.0', '24.1.0']) expect(nodeVersionProblem(ok), ok).toBeUndefined()
    expect(nodeVersionProblem('20.19.2')).toBe(
      "The desktop app needs Node.js 22.12.0 or newer (Electron's installer needs it); this is Node.js 20.19.2.\n" +
        'Install a newer Node.js (https://nodejs.org, or nvm install 22), then run npm start again.'
    )
    expect(nodeVersionProblem('22.11.9')).toContain('this is Node.js 22.11.9')
    expect(nodeVersionProblem('v21.99.99')).toContain('this is Node.js 21.99.99')
  })

  it("reads Electron's installer failing without network (its real output) as one line, and points at virtbench serve", () => {
    // node_modules/electron/install.js where GitHub cannot be reached (this machine)
    const stderr = readFileSync(path.join(FIXTURES, 'install-fetch-failed.stderr'), 'utf8')
    expect(failureReason(stderr)).toBe('TypeError: fetch failed')
    const advice = downloadAdvice(failureReason(stderr))
    expect(advice.split('\n')[0]).toBe('The Electron binary could not be downloaded: TypeError: fetch failed.')
    expect(advice).toContain('npm run build && npx virtbench serve')
    expect(advice).toContain('ELECTRON_MIRROR')
  })

  it('keeps a printed cause, and says so when the installer printed nothing', () => {
    expect(failureReason('TypeError: fetch failed\n    at x (y:1:2)\n  [cause]: Error: getaddrinfo ENOTFOUND github.com\n')).toBe(
      'TypeError: fetch failed (Error: getaddrinfo ENOTFOUND github.com)'
    )
    expect(failureReason('')).toBe('the installer printed nothing')
  })
})
