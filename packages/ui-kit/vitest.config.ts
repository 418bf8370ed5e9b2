import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { name: 'ui-kit', sequence: { groupOrder: 2 }, environment: 'node', include: ['src/**/*.test.{ts,tsx}'], setupFiles: ['./test/setup.ts'] },
})
