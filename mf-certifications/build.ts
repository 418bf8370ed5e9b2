import { runBuild } from '@portal/build-kit'
import config from './rspack.config.ts'

runBuild(config)
