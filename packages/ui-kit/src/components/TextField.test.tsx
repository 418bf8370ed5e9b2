import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { TextField } from './TextField.tsx'

const describedBy = (html: string) => / aria-describedby="([^"]*)"/.exec(html)?.[1]

describe('Text field', () => {
  it('is described by its error, its hint and then any ids it is given (a live preview elsewhere in the form)', () => {
    const html = renderToStaticMarkup(<TextField label="Obtained Date" error="Required" hint="Optional." aria-describedby="preview" />)
    const ids = describedBy(html)!.split(' ')
    expect(ids).toHaveLength(3)
    expect(ids[0]).toMatch(/-error$/)
    expect(ids[1]).toMatch(/-hint$/)
    expect(ids[2]).toBe('preview')
    expect(describedBy(renderToStaticMarkup(<TextField label="Name" aria-describedby="preview" />))).toBe('preview')
    expect(describedBy(renderToStaticMarkup(<TextField label="Name" />))).toBeUndefined()
  })
})
