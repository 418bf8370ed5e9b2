import { rspack } from '@rspack/core'
import config from './rspack.config.ts'

const compiler = rspack(config)

const report = (err: Error | null, stats: { hasErrors(): boolean; toString(o: object): string } | undefined) => {
  if (err) {
    console.error(err)
    process.exitCode = 1
    return
  }
  if (!stats) return
  console.log(stats.toString({ colors: false, assets: true, modules: false, chunks: false }))
  if (stats.hasErrors()) process.exitCode = 1
}

if (process.argv.includes('--watch')) {
  compiler.watch({}, report)
} else {
  compiler.run((err, stats) => {
    report(err, stats)
    compiler.close(() => {})
  })
}
