export { cmi5Items, isIri, parseCmi5Xml, type Cmi5ParseOptions } from './cmi5-xml.ts'
