import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'svc-notify',
    sequence: { groupOrder: 2 },
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Integration tests start databases, NATS streams and SMTP receivers.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
