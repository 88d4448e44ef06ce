import { describe, expect, it } from 'vitest'
import { installCommand, installPlan } from '../../../../../src/main/engine/preflight/install'
import { TOOLS } from '../../../../../src/main/tools/registry'
import { TOOL_IDS, type PackageManager } from '../../../../../src/main/tools/types'

const MANAGERS: PackageManager[] = ['apt', 'dnf', 'yum', 'zypper', 'apk']

describe('installCommand', () => {
  it('gives each package manager its non-interactive install, with sudo only when asked', () => {
    expect(MANAGERS.map((pm) => installCommand('fio', pm, true))).toEqual([
      'sudo apt-get install -y fio',
      'sudo dnf install -y fio',
      'sudo yum install -y fio',
      'sudo zypper --non-interactive install fio',
      'sudo apk add fio'
    ])
    expect(installCommand('fio', 'apt', false)).toBe('apt-get install -y fio')
    expect(installCommand('fio', undefined, true)).toBeUndefined()
  })

  it("uses each tool's own package names", () => {
    expect(installCommand('bonnie', 'apt', true)).toBe('sudo apt-get install -y bonnie++')
    expect(installCommand('ping', 'apt', true)).toBe('sudo apt-get install -y iputils-ping')
    expect(installCommand('iperf3', 'zypper', false)).toBe('zypper --non-interactive install iperf')
    expect(installCommand('iozone', 'apt', false)).toBe('apt-get install -y iozone3')
  })

  it('appends the source build where the package recipe only installs build tools', () => {
    expect(installCommand('iperf', 'zypper', true)).toBe(
      'sudo zypper --non-interactive install gcc gcc-c++ make curl && curl -fL -o iperf-2.1.9.tar.gz https://sourceforge.net/projects/iperf2/files/iperf-2.1.9.tar.gz/download && tar xzf iperf-2.1.9.tar.gz && cd iperf-2.1.9 && ./configure && make && make install'
    )
    expect(installCommand('mbw', 'apt', true)).toBe('sudo apt-get install -y mbw')
    expect(installPlan('mbw', 'apk')).toMatchObject({ packages: ['apk', 'add', 'build-base', 'git'], build: ['git clone https://github.com/raas/mbw.git mbw-src', 'make -C mbw-src', 'install -m 0755 mbw-src/mbw /usr/local/bin/mbw'] })
  })

  it('has no command where no recipe fits (IOzone with dnf: no package and no scripted build)', () => {
    expect(installPlan('iozone', 'dnf')).toBeUndefined()
    expect(installCommand('iozone', 'yum', true)).toBeUndefined()
  })

  it('offers a command for every tool with every manager its recipes name', () => {
    for (const id of TOOL_IDS) {
      for (const recipe of TOOLS[id].install) {
        if (recipe.kind !== 'package') continue
        const command = installCommand(id, recipe.manager, true)
        expect(command, `${id} with ${recipe.manager}`).toMatch(/^sudo /)
        for (const p of recipe.packages) expect(command).toContain(p)
      }
    }
  })

  it('a package recipe that only brings build tools has a source recipe beside it, and its note points to it', () => {
    const building = Object.values(TOOLS).flatMap((tool) =>
      tool.install.flatMap((r) => (r.kind === 'package' && r.buildsFromSource ? [{ tool, recipe: r }] : []))
    )
    expect(building.map(({ tool, recipe }) => `${tool.id}/${recipe.manager}`).sort()).toEqual([
      'iperf/zypper',
      'mbw/apk',
      'mbw/dnf',
      'mbw/yum',
      'mbw/zypper',
      'unixbench/apk',
      'unixbench/apt',
      'unixbench/dnf',
      'unixbench/yum',
      'unixbench/zypper'
    ])
    for (const { tool, recipe } of building) {
      expect(tool.install.some((r) => r.kind === 'source' && r.commands.length > 0), tool.id).toBe(true)
      expect(recipe.note, `${tool.id} ${recipe.manager}`).toMatch(/source recipe|"source" recipe/)
    }
  })
})
