import { runBuild } from '@portal/build-kit'
import config, { playerConfig } from './rspack.config.ts'

// The remote (dist/) and the content player (dist-player/), built side by side.
runBuild(config)
runBuild(playerConfig)
