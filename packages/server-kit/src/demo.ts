// Demo files for the single-node mode's demo data (course handbooks, certification proofs).
export { buildPdf, type PdfPage } from './demo-pdf.ts'
export { buildPng } from './demo-png.ts'
