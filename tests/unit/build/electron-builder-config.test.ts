import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv'
import { parse } from 'yaml'
import { beforeAll, describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const require = createRequire(import.meta.url)

type TargetEntry = string | { target: string; arch?: string | string[] }

interface BuilderConfig {
  appId?: string
  productName?: string
  directories?: { output?: string; buildResources?: string }
  files?: unknown[]
  asarUnpack?: string | string[]
  npmRebuild?: boolean
  publish?: unknown
  win?: { target?: TargetEntry | TargetEntry[]; icon?: string }
  nsis?: { oneClick?: boolean; allowToChangeInstallationDirectory?: boolean }
  mac?: { target?: TargetEntry | TargetEntry[]; category?: string; hardenedRuntime?: boolean; icon?: string }
  linux?: {
    target?: TargetEntry | TargetEntry[]
    category?: string
    maintainer?: string
    icon?: string
    synopsis?: string
    description?: string
  }
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const ICO_MAGIC = Buffer.from([0x00, 0x00, 0x01, 0x00])
const ICNS_MAGIC = Buffer.from('icns', 'ascii')

// Main categories from the freedesktop menu spec (Registered Categories, main list).
const FREEDESKTOP_MAIN_CATEGORIES = [
  'AudioVideo', 'Audio', 'Video', 'Development', 'Education', 'Game', 'Graphics',
  'Network', 'Office', 'Science', 'Settings', 'System', 'Utility'
]

function loadConfig(): BuilderConfig {
  const text = readFileSync(join(root, 'electron-builder.yml'), 'utf8')
  return parse(text) as BuilderConfig
}

function loadSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8')) as Record<string, unknown>
}

function formatErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`).join('\n')
}

function targetsOf(entry: TargetEntry | TargetEntry[] | undefined): Map<string, string[]> {
  const list = entry === undefined ? [] : Array.isArray(entry) ? entry : [entry]
  const result = new Map<string, string[]>()
  for (const item of list) {
    if (typeof item === 'string') {
      result.set(item, [])
    } else {
      const arch = item.arch === undefined ? [] : Array.isArray(item.arch) ? item.arch : [item.arch]
      result.set(item.target, arch)
    }
  }
  return result
}

function asList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value]
}

// electron-builder resolves icon paths against buildResources first, then the project dir.
function resolveResource(config: BuilderConfig, path: string): string {
  if (isAbsolute(path)) return path
  const inBuildResources = join(root, config.directories?.buildResources ?? 'build', path)
  return existsSync(inBuildResources) ? inBuildResources : join(root, path)
}

function startsWith(file: string, magic: Buffer): boolean {
  const head = readFileSync(file).subarray(0, magic.length)
  return head.equals(magic)
}

function pngSize(file: string): { width: number; height: number } {
  const buf = readFileSync(file)
  // IHDR is the first chunk: signature(8) + length(4) + type(4) + width(4) + height(4)
  expect(buf.subarray(12, 16).toString('ascii')).toBe('IHDR')
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) }
}

describe('electron-builder.yml', () => {
  let config: BuilderConfig
  let validate: ValidateFunction

  beforeAll(() => {
    config = loadConfig()
    const schema = loadSchema()
    // scheme.json declares draft-07, which is Ajv 8's default dialect.
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#')
    const ajv = new Ajv({ allErrors: true, strict: false })
    validate = ajv.compile(schema)
  })

  it('is valid against app-builder-lib/scheme.json', () => {
    const ok = validate(config)
    if (!ok) {
      throw new Error(`electron-builder.yml does not match the schema:\n${formatErrors(validate.errors)}`)
    }
    expect(ok).toBe(true)
  })

  it('the validator rejects bad configs', () => {
    const bad: unknown[] = [
      { nsis: { oneClick: 'yes' } },
      { notARealKey: true },
      { mac: { target: 'exe' } },
      { npmRebuild: 'false' }
    ]
    for (const candidate of bad) {
      expect(validate(candidate), JSON.stringify(candidate)).toBe(false)
      expect(validate.errors?.length ?? 0).toBeGreaterThan(0)
    }
  })

  it('has the app identity and directories', () => {
    expect(config.appId).toBe('io.virtbench.app')
    expect(config.productName).toBe('VirtBench')
    expect(config.directories?.output).toBe('dist')
    expect(config.directories?.buildResources).toBe('resources/build')
  })

  it('packages the build output and keeps sources, tests, maps and build resources out', () => {
    const files = config.files ?? []
    expect(files.every((f) => typeof f === 'string')).toBe(true)
    expect(files).toEqual(expect.arrayContaining(['out/**', 'bin/**', 'resources/**', 'package.json']))
    expect(files).toEqual(expect.arrayContaining(['!resources/build/**', '!src/**', '!tests/**', '!docs/**', '!**/*.map']))
  })

  it('unpacks the target scripts from asar, skips native rebuild and never publishes', () => {
    expect(asList(config.asarUnpack)).toContain('resources/scripts/**')
    expect(config.npmRebuild).toBe(false)
    expect(config).toHaveProperty('publish', null)
  })

  it('builds an assisted nsis installer for Windows x64', () => {
    expect(targetsOf(config.win?.target).get('nsis')).toEqual(['x64'])
    expect(config.nsis?.oneClick).toBe(false)
    expect(config.nsis?.allowToChangeInstallationDirectory).toBe(true)
  })

  it('builds dmg for x64 and arm64 on macOS', () => {
    const dmg = targetsOf(config.mac?.target).get('dmg')
    expect(dmg).toBeDefined()
    expect([...(dmg ?? [])].sort()).toEqual(['arm64', 'x64'])
    expect(config.mac?.category).toBe('public.app-category.developer-tools')
    expect(config.mac?.hardenedRuntime).toBe(true)
  })

  it('builds AppImage and deb on Linux with a valid freedesktop category', () => {
    const targets = targetsOf(config.linux?.target)
    expect(targets.has('AppImage')).toBe(true)
    expect(targets.has('deb')).toBe(true)
    expect(FREEDESKTOP_MAIN_CATEGORIES).toContain(config.linux?.category)
    expect(config.linux?.maintainer).toMatch(/^.+ <[^@\s]+@[^@\s]+>$/)
    expect(config.linux?.synopsis).toBeTruthy()
    expect(config.linux?.description).toBeTruthy()
  })

  describe('icons', () => {
    it('win.icon is a multi-size .ico that includes 256x256', () => {
      const file = resolveResource(config, config.win?.icon ?? 'icon.ico')
      expect(existsSync(file), file).toBe(true)
      expect(startsWith(file, ICO_MAGIC)).toBe(true)
      const buf = readFileSync(file)
      const count = buf.readUInt16LE(4)
      expect(count).toBeGreaterThan(1)
      const sizes: number[] = []
      for (let i = 0; i < count; i++) {
        const width = buf.readUInt8(6 + i * 16)
        sizes.push(width === 0 ? 256 : width)
      }
      expect(sizes).toEqual(expect.arrayContaining([16, 32, 48, 256]))
    })

    it('mac.icon is a well-formed .icns', () => {
      const file = resolveResource(config, config.mac?.icon ?? 'icon.icns')
      expect(existsSync(file), file).toBe(true)
      expect(startsWith(file, ICNS_MAGIC)).toBe(true)
      const buf = readFileSync(file)
      expect(buf.readUInt32BE(4)).toBe(buf.length)
      // Walk the element list: every element length must fit, and the 512/1024 PNG variants must exist.
      const types: string[] = []
      let offset = 8
      while (offset < buf.length) {
        const type = buf.subarray(offset, offset + 4).toString('ascii')
        const length = buf.readUInt32BE(offset + 4)
        expect(length).toBeGreaterThanOrEqual(8)
        expect(offset + length).toBeLessThanOrEqual(buf.length)
        types.push(type)
        if (['ic07', 'ic08', 'ic09', 'ic10'].includes(type)) {
          expect(buf.subarray(offset + 8, offset + 16).equals(PNG_MAGIC), type).toBe(true)
        }
        offset += length
      }
      expect(offset).toBe(buf.length)
      expect(types).toEqual(expect.arrayContaining(['ic08', 'ic09', 'ic10']))
    })

    it('linux.icon is a directory of NxN.png files with matching sizes', () => {
      const dir = resolveResource(config, config.linux?.icon ?? 'icons')
      expect(existsSync(dir) && statSync(dir).isDirectory(), dir).toBe(true)
      const names = readdirSync(dir).filter((n) => n.endsWith('.png'))
      const sizes = names.map((n) => Number(/^(\d+)x\1\.png$/.exec(n)?.[1] ?? NaN))
      expect(sizes.every((s) => Number.isInteger(s))).toBe(true)
      expect(sizes).toEqual(expect.arrayContaining([16, 32, 48, 64, 128, 256, 512]))
      for (const [i, name] of names.entries()) {
        const file = join(dir, name)
        expect(startsWith(file, PNG_MAGIC), file).toBe(true)
        expect(pngSize(file)).toEqual({ width: sizes[i], height: sizes[i] })
      }
    })

    it('has the 1024px source PNG, the SVG master and the runtime window icon', () => {
      const master = join(root, 'resources/build/icon.png')
      expect(startsWith(master, PNG_MAGIC)).toBe(true)
      expect(pngSize(master)).toEqual({ width: 1024, height: 1024 })
      expect(readFileSync(join(root, 'resources/build/icon.svg'), 'utf8')).toContain('<svg')
      const windowIcon = join(root, 'resources/icon.png')
      expect(startsWith(windowIcon, PNG_MAGIC)).toBe(true)
      expect(pngSize(windowIcon)).toEqual({ width: 256, height: 256 })
    })
  })
})
