import { describe, expect, it } from 'vitest'
import { isTrustedRendererUrl } from '../../../../src/main/electron/trusted-sender'

const FILE_RENDERER = 'file:///opt/VirtBench/resources/app.asar/out/renderer/index.html'
const DEV_RENDERER = 'http://localhost:5173/'

describe('isTrustedRendererUrl with a file renderer (production)', () => {
  it('trusts the exact file the app loaded', () => {
    expect(isTrustedRendererUrl(FILE_RENDERER, FILE_RENDERER)).toBe(true)
  })

  it('trusts the same file with a #hash or ?query (in-page routing)', () => {
    expect(isTrustedRendererUrl(`${FILE_RENDERER}#/runs/42`, FILE_RENDERER)).toBe(true)
    expect(isTrustedRendererUrl(`${FILE_RENDERER}?page=settings`, FILE_RENDERER)).toBe(true)
  })

  it('refuses another file, even next to the renderer', () => {
    expect(isTrustedRendererUrl('file:///opt/VirtBench/resources/app.asar/out/renderer/other.html', FILE_RENDERER)).toBe(
      false
    )
    expect(isTrustedRendererUrl('file:///tmp/index.html', FILE_RENDERER)).toBe(false)
    expect(isTrustedRendererUrl('file:///opt/VirtBench/resources/app.asar/out/renderer/', FILE_RENDERER)).toBe(false)
  })

  it('refuses web pages, even ones with the same path', () => {
    expect(isTrustedRendererUrl('https://example.com/', FILE_RENDERER)).toBe(false)
    expect(isTrustedRendererUrl('https://example.com/opt/VirtBench/resources/app.asar/out/renderer/index.html', FILE_RENDERER)).toBe(false)
    expect(isTrustedRendererUrl(DEV_RENDERER, FILE_RENDERER)).toBe(false)
  })

  it('refuses the same path on another host (a UNC share on Windows)', () => {
    // file://evil.example/C:/... is \\evil.example\C:\... on Windows: not the file the app loaded.
    expect(isTrustedRendererUrl('file://evil.example/opt/VirtBench/resources/app.asar/out/renderer/index.html', FILE_RENDERER)).toBe(false)
  })
})

describe('isTrustedRendererUrl with a dev server renderer', () => {
  it('trusts any page of the dev server origin', () => {
    expect(isTrustedRendererUrl('http://localhost:5173/', DEV_RENDERER)).toBe(true)
    expect(isTrustedRendererUrl('http://localhost:5173/some/path?x=1#y', DEV_RENDERER)).toBe(true)
  })

  it('refuses another port, host or scheme', () => {
    expect(isTrustedRendererUrl('http://localhost:5174/', DEV_RENDERER)).toBe(false)
    expect(isTrustedRendererUrl('http://127.0.0.1:5173/', DEV_RENDERER)).toBe(false)
    expect(isTrustedRendererUrl('http://localhost.evil.example:5173/', DEV_RENDERER)).toBe(false)
    expect(isTrustedRendererUrl('https://localhost:5173/', DEV_RENDERER)).toBe(false)
    expect(isTrustedRendererUrl('file:///some/path/index.html', DEV_RENDERER)).toBe(false)
  })
})

describe('isTrustedRendererUrl with garbage', () => {
  it.each(['', 'not a url', 'localhost:5173', '//localhost:5173/', 'http://', 'about:blank', 'data:text/html,hi'])(
    'refuses the sender %j',
    (sender) => {
      expect(isTrustedRendererUrl(sender, DEV_RENDERER)).toBe(false)
      expect(isTrustedRendererUrl(sender, FILE_RENDERER)).toBe(false)
    }
  )

  it('refuses everything when the renderer URL itself is not a URL', () => {
    expect(isTrustedRendererUrl(DEV_RENDERER, 'not a url')).toBe(false)
    expect(isTrustedRendererUrl('', '')).toBe(false)
  })
})
