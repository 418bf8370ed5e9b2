import { defineConfig } from 'vitest/config'

// Journeys in headless Chromium against the portal started as the README says (`npm start`).
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['**/*.e2e.ts'],
    globalSetup: ['./portal.setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    // First, before every other project's files (group 2, a file per core): a journey has the
    // machine to itself, and starts on it as fresh as when it ran alone.
    sequence: { groupOrder: 1 },
    // A page under a loaded 2-core CI machine can take more than the default second to show
    // what a poll waits for; a poll still ends as soon as it holds.
    expect: { poll: { timeout: 10_000 } },
  },
})
