import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'svc-identity',
    sequence: { groupOrder: 2 },
    environment: 'node',
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
