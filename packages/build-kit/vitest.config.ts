import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { name: 'build-kit', environment: 'node', include: ['src/**/*.test.ts'] },
})
