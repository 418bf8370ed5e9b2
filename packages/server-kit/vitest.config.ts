import { defineConfig } from 'vitest/config'

// Integration tests use the machine's PostgreSQL and NATS JetStream (see src/testing.ts).
export default defineConfig({
  test: {
    name: 'server-kit',
    sequence: { groupOrder: 2 },
    environment: 'node',
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
