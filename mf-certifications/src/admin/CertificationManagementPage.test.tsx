import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { brief, certType } from '../test/fixtures.ts'
import { adminKeys } from './data/apiHooks.ts'
import { CertificationManagementView } from './CertificationManagementPage.tsx'
import { TierSection } from './TierSection.tsx'
import { TypeFormDialog } from './TypeFormDialog.tsx'

const noop = () => undefined
const render = (node: ReactNode, seed?: (c: QueryClient) => void) => {
  const client = new QueryClient()
  seed?.(client)
  return renderToStaticMarkup(<QueryClientProvider client={client}>{node}</QueryClientProvider>)
}
const types = [certType(1, { name: 'OSHA 10', code: 'OSHA10', tier_level: 1, holders: 3, training_link: 'https://osha.example' }), certType(2, { name: 'Forklift', tier_level: 1, department: 'Service', validity_period: 36 })]
const requirements = [{ id: 7, tier_level: 1 as const, certification_id: 1, is_required: true, certification: brief(1, { name: 'OSHA 10', code: 'OSHA10', tier_level: 1 }) }]
const section = (expanded: boolean) => (
  <TierSection
    tier={1}
    tab="All"
    types={types}
    requirements={requirements}
    expanded={expanded}
    onToggle={noop}
    onEdit={noop}
    onDelete={noop}
    target={() => noop}
    focusLater={noop}
    announce={noop}
  />
)

describe('Certification Management', () => {
  it('renders each tier section as a disclosure button with its counts', () => {
    const html = render(section(true))
    expect(html).toMatch(/<h3[^>]*><button type="button" class="ct-tier-toggle" aria-expanded="true" aria-controls="[^"]+"><span>Tier 1 /)
    expect(html).toContain('(2 certifications, 1 requirement)')
    expect(render(section(false))).toMatch(/aria-expanded="false"[\s\S]*hidden=""/)
  })

  it('lists the types in a table with column headers and labelled actions', () => {
    const html = render(section(true))
    for (const col of ['Name', 'Code', 'Department', 'Validity', 'Proof', 'Status', 'Holders', 'Actions']) expect(html).toContain(`<th scope="col">${col}</th>`)
    expect(html).toContain('aria-label="Edit OSHA 10"')
    expect(html).toContain('aria-label="Delete Forklift"')
    expect(html).toContain('>3 years<')
    expect(html).toContain('>All departments<')
    expect(html).toContain('href="https://osha.example"')
  })

  it('edits the tier’s requirements: required toggle, remove, and add a type as required or optional', () => {
    const html = render(section(true))
    expect(html).toContain('aria-label="Required for Tier 1: OSHA 10"')
    expect(html).toContain('aria-label="Remove OSHA 10 from Tier 1"')
    expect(html).toContain('>Certification to add to Tier 1</label>')
    expect(html).toMatch(/<option value="2">Forklift \(T2\)<\/option>/)
    expect(html).not.toMatch(/<option value="1">/)
    expect(html).toContain('>Add Requirement</button>')
  })

  it('offers every field of the create form: URL training link, validity choices, upload required and active', () => {
    const html = render(<TypeFormDialog editing={{ mode: 'add', tab: 'Service' }} onSaved={noop} onClose={noop} />)
    expect(html).toContain('>Add Certification</h2>')
    for (const l of ['Name', 'Code', 'Tier', 'Department', 'Validity', 'Training Link', 'Description']) expect(html).toContain(`>${l}</label>`)
    expect(html).toMatch(/<input[^>]*type="url"/)
    for (const o of ['Lifetime', '1 year', '2 years', '3 years', '5 years']) expect(html).toContain(`>${o}</option>`)
    expect(html).toMatch(/<option value="Service" selected="">Service<\/option>/)
    expect(html.match(/type="checkbox" checked=""/g)).toHaveLength(2)
    expect(html).toContain('>Create Certification</button>')
  })

  it('fills the edit form with the stored type', () => {
    const html = render(<TypeFormDialog editing={{ mode: 'edit', type: types[1]! }} onSaved={noop} onClose={noop} />)
    expect(html).toContain('>Edit Certification</h2>')
    expect(html).toContain('value="Forklift"')
    expect(html).toMatch(/<option value="36" selected="">3 years<\/option>/)
    expect(html).toContain('>Update Certification</button>')
  })

  it('shows department tabs as a tablist with All selected', () => {
    const html = render(<CertificationManagementView navigate={noop} />, (c) => {
      c.setQueryData(adminKeys.types(), types)
      c.setQueryData(adminKeys.requirements(), requirements)
    })
    expect(html).toContain('role="tablist" aria-label="Departments"')
    for (const t of ['Service', 'Testing', 'Construction', 'Electricians']) expect(html).toMatch(new RegExp(`role="tab"[^>]*aria-selected="false"[^>]*tabindex="-1">${t}<`))
    expect(html).toMatch(/role="tab"[^>]*aria-selected="true"[^>]*tabindex="0">All</)
    expect(html).toContain('role="tabpanel"')
    expect(html.match(/class="ct-tier-toggle"/g)).toHaveLength(4)
  })
})
