import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { LiveRegion } from './LiveRegion.tsx'

describe('live region', () => {
  it('is a polite status in the page before any message', () => {
    const html = renderToStaticMarkup(<LiveRegion message={null} />)
    expect(html).toContain('role="status"')
    expect(html).toContain('aria-live="polite"')
    expect(html).toContain('pk-visually-hidden')
  })

  it('holds the latest message', () => {
    expect(renderToStaticMarkup(<LiveRegion message={{ text: "Module 'Intro' moved to position 2 of 3", id: 4 }} />)).toContain(
      '<span>Module &#x27;Intro&#x27; moved to position 2 of 3</span>',
    )
  })

  it('keeps a detail apart from the message, after it', () => {
    expect(renderToStaticMarkup(<LiveRegion message={{ text: 'Daily notification check triggered successfully', detail: '3 notices sent.', id: 1 }} />)).toContain(
      '<span><span>Daily notification check triggered successfully</span> <span>3 notices sent.</span></span>',
    )
  })
})
