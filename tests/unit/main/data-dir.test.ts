import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { APP_DIR_NAME, defaultDataDir } from '../../../src/main/data-dir'

describe('defaultDataDir', () => {
  it('names the app folder VirtBench, like Electron userData', () => {
    expect(APP_DIR_NAME).toBe('VirtBench')
  })

  it('uses VIRTBENCH_DATA_DIR when set, on every platform', () => {
    const dir = path.resolve('/srv/virtbench-data')
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(defaultDataDir({ VIRTBENCH_DATA_DIR: dir, APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, platform, '/home/ada')).toBe(dir)
    }
  })

  it('resolves a relative VIRTBENCH_DATA_DIR to an absolute path', () => {
    const dir = defaultDataDir({ VIRTBENCH_DATA_DIR: 'portable/data' }, 'linux', '/home/ada')
    expect(path.isAbsolute(dir)).toBe(true)
    expect(dir).toBe(path.join(process.cwd(), 'portable', 'data'))
  })

  it('ignores an empty VIRTBENCH_DATA_DIR', () => {
    expect(defaultDataDir({ VIRTBENCH_DATA_DIR: '' }, 'linux', '/home/ada')).toBe('/home/ada/.config/VirtBench')
  })

  it('uses ~/.config on Linux without XDG_CONFIG_HOME', () => {
    expect(defaultDataDir({}, 'linux', '/home/ada')).toBe('/home/ada/.config/VirtBench')
    expect(defaultDataDir({ XDG_CONFIG_HOME: '' }, 'linux', '/home/ada')).toBe('/home/ada/.config/VirtBench')
  })

  it('ignores a relative XDG_CONFIG_HOME, as the XDG spec requires', () => {
    expect(defaultDataDir({ XDG_CONFIG_HOME: 'config' }, 'linux', '/home/ada')).toBe('/home/ada/.config/VirtBench')
  })

  it('uses XDG_CONFIG_HOME on Linux when set', () => {
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/data/ada/config' }, 'linux', '/home/ada')).toBe('/data/ada/config/VirtBench')
  })

  it('treats other Unix platforms like Linux', () => {
    expect(defaultDataDir({}, 'freebsd', '/usr/home/ada')).toBe('/usr/home/ada/.config/VirtBench')
  })

  it('uses ~/Library/Application Support on macOS, ignoring XDG_CONFIG_HOME', () => {
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/elsewhere' }, 'darwin', '/Users/ada')).toBe(
      '/Users/ada/Library/Application Support/VirtBench'
    )
  })

  it('uses APPDATA on Windows when set', () => {
    expect(defaultDataDir({ APPDATA: 'D:\\Profiles\\ada\\Roaming' }, 'win32', 'C:\\Users\\ada')).toBe(
      path.win32.join('D:\\Profiles\\ada\\Roaming', 'VirtBench')
    )
    expect(defaultDataDir({ APPDATA: 'D:\\Profiles\\ada\\Roaming' }, 'win32', 'C:\\Users\\ada')).toBe(
      'D:\\Profiles\\ada\\Roaming\\VirtBench'
    )
  })

  it('falls back to <home>\\AppData\\Roaming on Windows without APPDATA', () => {
    expect(defaultDataDir({}, 'win32', 'C:\\Users\\ada')).toBe('C:\\Users\\ada\\AppData\\Roaming\\VirtBench')
    expect(defaultDataDir({ APPDATA: '' }, 'win32', 'C:\\Users\\ada')).toBe(
      path.win32.join('C:\\Users\\ada', 'AppData', 'Roaming', 'VirtBench')
    )
  })
})
