import { defineConfig } from 'vitest/config'

// One `vitest run` at the root runs every workspace's tests (each has its own config) and the
// end-to-end journeys; `npm test -w <workspace>` runs one workspace alone.
export default defineConfig({
  test: {
    projects: ['packages/*', 'svc-*', 'gateway', 'launcher', 'shell', 'mf-*', 'e2e'],
  },
})
