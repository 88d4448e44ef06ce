import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import layers from './eslint-rules/layers.mjs'

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    plugins: { virtbench: { rules: { layers } } },
    rules: {
      'virtbench/layers': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always'],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='ipcRenderer'][property.name='sendSync']",
          message: 'Synchronous IPC blocks the renderer; use the typed invoke API.'
        }
      ]
    }
  },
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    ignores: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.node } }
  },
  {
    // Raw ipcMain / ipcRenderer only where the contract is wired, so nobody bypasses the types.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/main/electron/ipc.ts', 'src/preload/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', importNames: ['ipcMain', 'ipcRenderer'], message: 'Use the typed contract (src/shared/contract.ts); IPC is wired only in src/main/electron/ipc.ts and src/preload/index.ts.' }
          ]
        }
      ]
    }
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules }
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' }
  }
)
