import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { MemoryRouter } from 'react-router'
import { expect, vi } from 'vitest'
import { AuthProvider } from './AuthProvider.tsx'

/** An auth page as the shell shows it (signed out, in a router at `path`). */
export const renderAuthPage = (page: ReactNode, path = '/') =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <AuthProvider>{page}</AuthProvider>
    </MemoryRouter>,
  )

/**
 * Answers the portal's API at the browser's edge (fetch) by "METHOD /api/path"; any other request
 * stays pending, so none leaves the test. Records what was asked, with the JSON bodies sent.
 */
export function answerApi(answers: Record<string, () => Response>) {
  const calls: { asked: string; body: unknown }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit = {}) => {
      const asked = `${init.method ?? 'GET'} ${url}`
      calls.push({ asked, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined })
      const answer = answers[asked]
      return answer ? Promise.resolve(answer()) : new Promise<Response>(() => undefined)
    }),
  )
  return calls
}

/** The field is marked invalid and its description (aria-describedby) says `message`. */
export const expectMarked = (field: HTMLElement, message: string) => {
  expect(field.getAttribute('aria-invalid')).toBe('true')
  const described = (field.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent)
  expect(described).toContain(message)
}

/** The field is not marked invalid. */
export const expectUnmarked = (field: HTMLElement) => expect(field.getAttribute('aria-invalid')).toBeNull()
