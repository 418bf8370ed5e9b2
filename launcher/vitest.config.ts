import { defineConfig } from 'vitest/config'

export default defineConfig({ test: { name: 'launcher', sequence: { groupOrder: 2 }, environment: 'node', testTimeout: 60_000, hookTimeout: 60_000 } })
