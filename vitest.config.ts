import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

// One `vitest run` at the root runs every workspace's tests (each has its own config) and the
// end-to-end journeys; `npm test -w <workspace>` runs one workspace alone.
//
// Two test files at a time at least: Vitest's default (the cores less one) is one on a 2-core
// machine, which left CI running every file in turn (the suite's files wait on PostgreSQL, NATS and
// child processes as much as they compute). The end-to-end journeys run after the rest, one file
// at a time (e2e/vitest.config.ts), so that their browser and portal have the machine to themselves.
export default defineConfig({
  test: {
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: ['packages/*', 'svc-*', 'gateway', 'launcher', 'shell', 'mf-*', 'e2e'],
  },
})
