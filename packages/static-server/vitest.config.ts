import { defineConfig } from 'vitest/config'

export default defineConfig({ test: { name: 'static-server', sequence: { groupOrder: 2 }, environment: 'node' } })
