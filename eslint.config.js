// Lint: JavaScript's and typescript-eslint's recommended rules, Prettier's formatting left to
// `prettier --check`, and the repository's boundaries (STYLE.md "Layout shows the architecture"):
//  1. No workspace reaches into another's files by a relative path (import-x/no-relative-packages):
//     code of another workspace comes through its package name, i.e. its `exports` entry points.
//  2. No deployable imports another deployable; the launcher alone starts the services and the
//     gateway, through their package entry points (`svc-certs/server`, ...). e2e and bench are
//     test and measure code: they may import packages and deployables' entry points (and each
//     other's helpers); nothing imports them.
//  3. Packages never import deployables (nor e2e or bench).
//  4. A feature (a folder directly under a service's or remote's src/) imports another feature
//     only through that feature's index.ts.
//  5. No import cycles (import-x/no-cycle).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import { importX, createNodeResolver } from 'eslint-plugin-import-x'
import prettier from 'eslint-config-prettier/flat'
import globals from 'globals'

const root = import.meta.dirname
const dirsIn = (dir) =>
  existsSync(join(root, dir))
    ? readdirSync(join(root, dir), { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : []

const workspaces = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces.flatMap((w) =>
  w.endsWith('/*') ? dirsIn(w.slice(0, -2)).map((d) => `${w.slice(0, -2)}/${d}`) : [w],
)
const packages = workspaces.filter((w) => w.startsWith('packages/'))
const deployables = workspaces.filter((w) => !w.startsWith('packages/'))
const tooling = ['e2e', 'bench']
// Deployables sliced by feature: each folder directly under src/ is a feature.
const sliced = deployables.filter((w) => w.startsWith('svc-') || w.startsWith('mf-') || w === 'shell')
// What the launcher starts in one process (through each one's `./server` entry point).
const started = deployables.filter((w) => w.startsWith('svc-') || w === 'gateway')

const boundaryZones = [
  ...packages.map((p) => ({
    target: p,
    from: [...deployables, ...tooling],
    message: 'A package never imports a deployable (nor e2e or bench): move what both need into a package.',
  })),
  ...deployables.map((d) => ({
    target: d,
    from: [...deployables.filter((o) => o !== d && !(d === 'launcher' && started.includes(o))), ...tooling],
    message:
      d === 'launcher'
        ? 'The launcher starts the services and the gateway only; it imports no remote, e2e or bench code.'
        : 'A deployable never imports another deployable (only the launcher starts them): share through packages/*.',
  })),
]
const featureZones = sliced.flatMap((w) =>
  dirsIn(`${w}/src`).map((feature) => ({
    target: `${w}/src/!(${feature})/**`,
    from: `${w}/src/${feature}`,
    except: ['./index.ts'],
    message: `Another feature imports ${w}/src/${feature} only through its index.ts.`,
  })),
)

export default tseslint.config(
  {
    ignores: ['**/node_modules/', '**/dist/', '**/dist-player/', '**/.data/', '**/.worker-build/', 'test-results/', 'bench/results/', 'svc-learning/src/demo/scorm-demo/'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
    settings: {
      // import-x reads the files an import leads to (for no-cycle) only with these two.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: {
      // The code's convention for a binding kept on purpose: a leading underscore, or a member
      // left out of a rest copy (`const { gone: _gone, ...rest } = row`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'import-x/no-relative-packages': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: [...boundaryZones, ...featureZones] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
    },
  },
  prettier,
)
