import { readFileSync } from 'node:fs'
import { defineConfig } from 'vitest/config'

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }
const define = { __APP_VERSION__: JSON.stringify(pkg.version) }

export default defineConfig({
  define,
  test: {
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    projects: [
      {
        extends: true,
        // the time limits here catch a hang, never a slow machine: a loaded 2-core CI machine
        // stretched user-event tests past vitest's default 5 s
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', testTimeout: 60_000 }
      },
      {
        extends: true,
        test: {
          name: 'component',
          include: ['tests/component/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['tests/component/setup.ts'],
          testTimeout: 60_000
        }
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          exclude: ['tests/integration/lab/**', 'tests/integration/truth/**'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000
        }
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 90_000,
          fileParallelism: false
        }
      },
      {
        // known truth (tests/harness/truth/, docs/known-truth.md): targets held to set CPU, disk and
        // network limits, and VirtBench's figures held to them within a point or two. One file at a
        // time: every CPU-limited target is pinned to the same CPU, and two files' quotas there add
        // up to more than the CPU has (then no quota binds and the ratios drift)
        extends: true,
        test: {
          name: 'truth',
          include: ['tests/integration/truth/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false
        }
      },
      {
        // real qemu/libvirt guests (lab/, docs/lab.md): after every other project, one file at a
        // time, so software-emulated guests do not share the 2 cores with timing-sensitive tests
        extends: true,
        test: {
          name: 'lab',
          include: ['tests/integration/lab/**/*.test.ts'],
          environment: 'node',
          testTimeout: 600_000,
          hookTimeout: 600_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 }
        }
      }
    ]
  }
})
