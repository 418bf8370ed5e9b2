import { defineConfig } from 'vitest/config'

export default defineConfig({ test: { name: 'static-server', environment: 'node' } })
