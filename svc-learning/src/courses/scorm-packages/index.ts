export { PackageError, type PackageInfo } from './package-info.ts'
export { parseManifest } from './manifest.ts'
export { parseAicc, type AiccFiles } from './aicc.ts'
export { DEFAULT_EXTRACT_LIMITS, ingestPackage, type ExtractLimits } from './ingest.ts'
