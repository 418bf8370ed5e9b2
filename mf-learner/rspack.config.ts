import path from 'node:path'
import { rspack, type Configuration } from '@rspack/core'
import { baseConfig, remoteConfig } from '@portal/build-kit'
import { CONTENT_PLAYER_PATH } from '@portal/contracts'

const dir = import.meta.dirname

export default remoteConfig({
  dir,
  name: 'mf_learner',
  exposes: { './UserDashboard': './src/UserDashboard.tsx' },
})

const player = baseConfig({ dir, publicPath: CONTENT_PLAYER_PATH, uniqueName: 'content_player' })

/**
 * The content player (src/player): a page of its own, not part of the remote, served by the
 * gateway on the content origin only (decision "content-origin"). It carries the SCORM runtime;
 * scorm-again's 1.2 and 2004 builds stay separate chunks, loaded for the package's version. The
 * gateway writes the portal's origins into its `portal-origins` meta.
 */
export const playerConfig: Configuration = {
  ...player,
  entry: { player: './src/player/main.ts' },
  output: { ...player.output, path: path.join(dir, 'dist-player') },
  plugins: [
    new rspack.HtmlRspackPlugin({
      templateContent:
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="portal-origins" content=""><title>Course content</title><link rel="icon" href="data:,"></head><body><div id="player"></div></body></html>',
    }),
  ],
  optimization: { minimize: true },
}
