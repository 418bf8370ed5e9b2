import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { CERTS_NODE_FLAGS } from './node-flags.ts'

describe('svc-certs node flags', () => {
  it('are the ones its image starts it with', async () => {
    const dockerfile = await readFile(new URL('../../Dockerfile', import.meta.url), 'utf8')
    const stage = /FROM base AS svc-certs\n([\s\S]*?)(?:\nFROM |$)/.exec(dockerfile)![1]!
    const cmd = JSON.parse(/^CMD (.*)$/m.exec(stage)![1]!) as string[]
    expect(cmd).toEqual(['node', ...CERTS_NODE_FLAGS, 'svc-certs/src/server.ts'])
  })
})
