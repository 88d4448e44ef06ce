import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { builtRendererDir } from '../../../src/cli/renderer-dir'

describe('builtRendererDir', () => {
  let root: string | undefined
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true })
  })

  it('finds out/renderer from a lazily loaded command in out/main/chunks, and from out/main', () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'vb-renderer-dir-'))
    mkdirSync(path.join(root, 'out', 'main', 'chunks'), { recursive: true })
    mkdirSync(path.join(root, 'out', 'renderer'), { recursive: true })
    writeFileSync(path.join(root, 'out', 'renderer', 'index.html'), '<!doctype html>')
    expect(builtRendererDir(path.join(root, 'out', 'main', 'chunks'))).toBe(path.join(root, 'out', 'renderer'))
    expect(builtRendererDir(path.join(root, 'out', 'main'))).toBe(path.join(root, 'out', 'renderer'))
  })

  it('falls back to ../renderer, as before, when no built UI is above it', () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'vb-renderer-dir-'))
    mkdirSync(path.join(root, 'a', 'b'), { recursive: true })
    expect(builtRendererDir(path.join(root, 'a', 'b'))).toBe(path.join(root, 'a', 'renderer'))
  })
})
