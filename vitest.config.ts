import { defineConfig } from 'vitest/config'

// One `vitest run` at the root runs every workspace's tests (each has its own config) and the
// end-to-end journeys; `npm test -w <workspace>` runs one workspace alone.
//
// `npm test` passes `--maxWorkers=100%` (a file per core): Vitest's default, the cores less one,
// is one on a 2-core machine and ran every file in turn; set here, a root option does not reach
// the projects, which each resolve their own from their config file. The end-to-end journeys run
// after the rest, one file at a time (e2e/vitest.config.ts), with the machine to themselves.
export default defineConfig({
  test: {
    projects: ['packages/*', 'svc-*', 'gateway', 'launcher', 'shell', 'mf-*', 'e2e'],
  },
})
