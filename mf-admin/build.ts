import { rspack } from '@rspack/core'
import { runBuild } from '@portal/build-kit'
import config from './rspack.config.ts'
import workerConfig from './worker.config.ts'

// The pre-upload editor's worker first: the remote ships its output as an asset.
await new Promise<void>((resolve, reject) =>
  rspack(workerConfig).run((err, stats) => {
    if (err || !stats || stats.hasErrors()) return reject(err ?? new Error(stats?.toString({ colors: false, all: false, errors: true })))
    resolve()
  }),
)
runBuild(config)
