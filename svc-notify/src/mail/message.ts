/** An e-mail ready to go out: rendered HTML and its plain-text alternative. */
export interface RenderedEmail {
  subject: string
  text: string
  html: string
}

/** A rendered e-mail addressed to one recipient; `id` is the delivery id (stable across retries). */
export interface OutgoingEmail extends RenderedEmail {
  id: string
  to: string
}
