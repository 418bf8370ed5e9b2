import { buildPdf } from '@portal/server-kit/demo'

/** What a certificate of completion states (issue 24: the proof of a certification renewed by a course or exam). */
export interface CompletionCertificate {
  learner: string
  itemKind: 'course' | 'exam'
  itemTitle: string
  /** The company's calendar day of the completion, `YYYY-MM-DD`. */
  completedOn: string
  certification: { name: string; code: string }
  /** The renewed certification's new expiry (null: it does not expire). */
  expiresOn: string | null
  /** The completion record: the exam attempt, or the course completion's event. */
  recordId: string
}

/** The PDF writer takes ASCII: accents are dropped ("José" reads "Jose"), anything else becomes "?". */
const ascii = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '')

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
/** `2026-11-28` as "November 28, 2026". */
const longDate = (date: string) => `${MONTHS[Number(date.slice(5, 7)) - 1]} ${Number(date.slice(8, 10))}, ${date.slice(0, 4)}`

/** A one-page PDF 1.4 "Certificate of Completion" (server-kit's PDF writer: a valid file any viewer opens). */
export function buildCompletionCertificate(c: CompletionCertificate): Buffer {
  const what = c.itemKind === 'exam' ? `passed the exam "${c.itemTitle}"` : `completed the course "${c.itemTitle}"`
  return buildPdf(ascii(`Certificate of Completion - ${c.learner}`), [
    {
      heading: 'Certificate of Completion',
      paragraphs: [
        ascii(`This certifies that ${c.learner} ${what} on ${longDate(c.completedOn)}.`),
        ascii(
          `This completion renews the certification ${c.certification.name} (${c.certification.code}), ${c.expiresOn ? `valid until ${longDate(c.expiresOn)}` : 'which does not expire'}.`,
        ),
        ascii(`Completion date: ${c.completedOn}`),
        ascii(`Completion record: ${c.recordId}`),
        'Issued by the learning portal from the completion record.',
      ],
    },
  ])
}

/** The certificate's file name: `certificate-of-completion-{code}-{date}.pdf`. */
export const completionCertificateName = (code: string, completedOn: string) =>
  `certificate-of-completion-${
    code
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'certification'
  }-${completedOn}.pdf`
