import { defineConfig } from 'vitest/config'

export default defineConfig({ test: { name: 'contracts', sequence: { groupOrder: 2 }, environment: 'node' } })
