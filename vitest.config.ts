import { defineConfig } from 'vitest/config'

// One `vitest run` at the root runs every workspace's tests (each has its own config) and the
// end-to-end journeys; `npm test -w <workspace>` runs one workspace alone.
//
// `npm test` passes `--maxWorkers=100%` (a file per core): Vitest's default, the cores less one,
// is one on a 2-core machine and ran every file in turn; set here, a root option does not reach
// the projects, which each resolve their own from their config file. The end-to-end journeys run
// first, one file at a time (`sequence.groupOrder: 1` in e2e/vitest.config.ts), with the machine to
// themselves; every other project after them (`groupOrder: 2` in each project's config). Group 0
// is not used: Vitest runs a group-0 project of one worker after all the others.
export default defineConfig({
  test: {
    projects: ['packages/*', 'svc-*', 'gateway', 'launcher', 'shell', 'mf-*', 'e2e'],
  },
})
