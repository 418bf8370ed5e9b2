export { PackageError, type PackageInfo } from './package-info.ts'
export { parseManifest } from './manifest.ts'
