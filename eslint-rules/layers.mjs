// The layer rules of docs/architecture.md, checked on every import, export-from, dynamic import
// and require. A relative import is resolved against the importing file and judged by the layer
// it lands in, so `../../main/x` is caught however deep the file is.
import path from 'node:path'
import { builtinModules } from 'node:module'

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)])

/** Most specific first. `allow` lists the layers a layer may import; `packages` the npm packages. */
export const LAYERS = [
  { name: 'main/electron', dir: 'src/main/electron', allow: ['main/*', 'shared'], packages: '*', electron: true },
  { name: 'main/tools', dir: 'src/main/tools', allow: ['main/tools', 'shared'], packages: ['zod'], builtins: false },
  { name: 'main/fs', dir: 'src/main/fs', allow: ['main/fs', 'shared'], packages: [] },
  { name: 'main/secrets', dir: 'src/main/secrets', allow: ['main/secrets', 'main/fs', 'shared'], packages: '*' },
  { name: 'main/ssh', dir: 'src/main/ssh', allow: ['main/ssh', 'main/secrets', 'main/fs', 'shared'], packages: '*' },
  { name: 'main/store', dir: 'src/main/store', allow: ['main/store', 'main/fs', 'shared'], packages: '*' },
  { name: 'main/report', dir: 'src/main/report', allow: ['main/report', 'main/fs', 'shared'], packages: '*' },
  { name: 'main/engine', dir: 'src/main/engine', allow: ['main/engine', 'main/tools', 'main/ssh', 'main/secrets', 'main/store', 'main/fs', 'shared'], packages: '*' },
  { name: 'main', dir: 'src/main', allow: ['main/*', 'shared'], packages: '*', notInto: ['main/electron'] },
  { name: 'preload', dir: 'src/preload', allow: ['preload', 'shared'], packages: [], electron: true, builtins: false },
  // inside the renderer, the store and what it is made of sit below the screens: a slice never imports a screen
  { name: 'renderer/models', dir: 'src/renderer/src/models', allow: ['renderer/models', 'renderer/lib', 'shared'], packages: [], builtins: false },
  { name: 'renderer/lib', dir: 'src/renderer/src/lib', allow: ['renderer/lib', 'shared'], packages: [], builtins: false },
  {
    name: 'renderer/store',
    dir: 'src/renderer/src/store',
    allow: ['renderer/store', 'renderer/models', 'renderer/lib', 'renderer/api', 'shared'],
    packages: '*',
    builtins: false,
    forbidPackages: ['ssh2', 'ws', 'pg']
  },
  { name: 'renderer/api', dir: 'src/renderer/src/api', allow: ['renderer/api', 'shared'], packages: '*', builtins: false, forbidPackages: ['ssh2', 'ws', 'pg'] },
  { name: 'renderer', dir: 'src/renderer', allow: ['renderer', 'renderer/*', 'shared'], packages: '*', builtins: false, forbidPackages: ['ssh2', 'ws', 'pg'] },
  { name: 'cli', dir: 'src/cli', allow: ['cli', 'main/*', 'shared'], packages: '*', notInto: ['main/electron'] },
  { name: 'shared', dir: 'src/shared', allow: ['shared'], packages: ['zod'], builtins: false }
]

function layerOf(file, root) {
  const rel = path.relative(root, file).split(path.sep).join('/')
  return LAYERS.find((l) => rel === l.dir || rel.startsWith(`${l.dir}/`))
}

function allows(layer, target) {
  if ((layer.notInto ?? []).includes(target.name)) return false
  if (target.name === 'main/electron' && layer.name !== 'main/electron') return false
  return layer.allow.some((a) => a === target.name || (a.endsWith('/*') && (target.name === a.slice(0, -2) || target.name.startsWith(a.slice(0, -1)))))
}

function packageName(specifier) {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the import rules between the layers of src/ (see docs/architecture.md)' },
    schema: []
  },
  create(context) {
    const root = context.cwd
    const file = context.filename
    const layer = layerOf(file, root)
    if (!layer) return {}

    function check(node, specifier) {
      if (typeof specifier !== 'string') return
      const report = (why) =>
        context.report({ node, message: `${layer.dir} must not import '${specifier}': ${why} (see docs/architecture.md).` })
      if (specifier.startsWith('.')) {
        const target = layerOf(path.resolve(path.dirname(file), specifier), root)
        if (!target) return report('it is outside src/')
        if (!allows(layer, target)) return report(`${layer.name} may import only ${layer.allow.join(', ')}`)
        return
      }
      if (specifier === 'electron' || specifier.startsWith('electron/')) {
        if (!layer.electron) return report('only src/main/electron/ and src/preload/ may import electron')
        return
      }
      if (builtins.has(specifier)) {
        if (layer.builtins === false) return report(`${layer.name} runs without Node built-ins`)
        return
      }
      const name = packageName(specifier)
      if ((layer.forbidPackages ?? []).includes(name)) return report(`${name} belongs to main`)
      if (layer.packages !== '*' && !layer.packages.includes(name)) {
        return report(`${layer.name} may use only ${layer.packages.length ? layer.packages.join(', ') : 'no npm packages'}`)
      }
    }

    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') {
          check(node.arguments[0], node.arguments[0].value)
        }
      }
    }
  }
}
