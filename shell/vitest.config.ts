import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { name: 'shell', sequence: { groupOrder: 2 }, environment: 'node', include: ['src/**/*.test.{ts,tsx}'], setupFiles: ['../packages/ui-kit/test/setup.ts'] },
})
