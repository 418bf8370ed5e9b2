import { defineConfig } from 'vitest/config'

export default defineConfig({ test: { name: 'gateway', sequence: { groupOrder: 2 }, environment: 'node' } })
