import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { name: 'build-kit', sequence: { groupOrder: 2 }, environment: 'node', include: ['src/**/*.test.ts'] },
})
