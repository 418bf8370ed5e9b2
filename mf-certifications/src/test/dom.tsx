import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, within } from '@testing-library/react'
import type { ReactNode } from 'react'

/**
 * Renders `node` into the test's document under a query client that keeps what `seed` puts in it
 * (no refetch on mount, no retry).
 */
export const renderWithClient = (node: ReactNode, seed?: (client: QueryClient) => void) => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } })
  seed?.(client)
  // A wrapper, so that `rerender` keeps the client.
  return render(node, { wrapper: ({ children }) => <QueryClientProvider client={client}>{children}</QueryClientProvider> })
}

/** The value read after the term `label` of a description list in `container` (its first definition). */
export const figure = (container: HTMLElement, label: string): HTMLElement => {
  const term = within(container)
    .getAllByRole('term')
    .find((t) => t.textContent === label)
  if (!term) throw new Error(`no figure "${label}" in ${container.textContent}`)
  const value = term.nextElementSibling
  if (!(value instanceof HTMLElement) || value.tagName !== 'DD') throw new Error(`figure "${label}" has no value`)
  return value
}

/** The text of each cell of a table's body rows (row headers included), row by row. */
export const bodyRows = (table: HTMLElement): string[][] =>
  within(table)
    .getAllByRole('row')
    .filter((r) => within(r).queryAllByRole('columnheader').length === 0)
    .map((r) => [...r.children].map((c) => c.textContent ?? ''))
