import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { uploadPercent } from '../upload.ts'
import { UploadProgress } from './UploadProgress.tsx'

describe('Upload progress', () => {
  it('turns bytes into a whole percent, unknown while the total is', () => {
    expect(uploadPercent(42, 100)).toBe(42)
    expect(uploadPercent(1, 3)).toBe(33)
    expect(uploadPercent(150, 100)).toBe(100)
    expect(uploadPercent(5, 0)).toBeNull()
  })

  it('is a progress bar with the percent as value and text', () => {
    const html = renderToStaticMarkup(<UploadProgress loaded={42} total={100} />)
    expect(html).toContain('role="progressbar"')
    expect(html).toContain('aria-valuenow="42"')
    expect(html).toContain('Uploading… 42%')
  })

  it('has no value while the total is unknown and says what happens once every byte is sent', () => {
    expect(renderToStaticMarkup(<UploadProgress loaded={0} total={0} />)).not.toContain('aria-valuenow')
    expect(renderToStaticMarkup(<UploadProgress loaded={100} total={100} />)).toContain('Upload complete. Processing on the server…')
    expect(renderToStaticMarkup(<UploadProgress loaded={100} total={100} doneText="Upload complete. Saving…" />)).toContain('Upload complete. Saving…')
  })
})
