// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { brief, certType, holdRequests, renderWithClient as render } from '../test/index.ts'
import { adminKeys } from './data/apiHooks.ts'
import { CertificationManagementView } from './CertificationManagementPage.tsx'
import { TierSection } from './TierSection.tsx'
import { TypeFormDialog } from './TypeFormDialog.tsx'

const noop = () => undefined
const types = [
  certType(1, { name: 'OSHA 10', code: 'OSHA10', tier_level: 1, holders: 3, training_link: 'https://osha.example' }),
  certType(2, { name: 'Forklift', tier_level: 1, department: 'Service', validity_period: 36, renewed_by: [{ item_kind: 'course', item_id: 3, item_title: 'Forklift Refresher' }] }),
]
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

// No request leaves the test: whatever is not in the cache stays loading.
holdRequests()

/** The options a select offers, as `value text`. */
const optionsOf = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((o) => `${(o as HTMLOptionElement).value} ${o.textContent}`)

describe('Certification Management', () => {
  it('renders each tier section as a disclosure button with its counts', () => {
    const { rerender } = render(section(true))
    const heading = screen.getByRole('heading', { level: 3, name: 'Tier 1 (2 certifications, 1 requirement)' })
    const toggle = within(heading).getByRole('button', { name: 'Tier 1 (2 certifications, 1 requirement)', expanded: true })
    const body = document.getElementById(toggle.getAttribute('aria-controls')!)!
    expect(body.hidden).toBe(false)
    rerender(section(false))
    expect(screen.getByRole('button', { name: 'Tier 1 (2 certifications, 1 requirement)', expanded: false })).toBe(toggle)
    expect(body.hidden).toBe(true)
    expect(screen.queryByRole('table')).toBeNull()
  })

  it('lists the types in a table with column headers and labelled actions', () => {
    render(section(true))
    const table = screen.getByRole('table', { name: 'Tier 1 certifications' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Code', 'Department', 'Validity', 'Renewed by', 'Proof', 'Status', 'Holders', 'Actions'])
    expect(within(table).getByRole('button', { name: 'Edit OSHA 10' })).toBeTruthy()
    expect(within(table).getByRole('button', { name: 'Delete Forklift' })).toBeTruthy()
    const forklift = within(table).getByRole('row', { name: /^Forklift/ })
    expect(within(forklift).getByRole('cell', { name: '3 years' })).toBeTruthy()
    expect(within(forklift).getByRole('cell', { name: 'Course: Forklift Refresher' })).toBeTruthy()
    const osha = within(table).getByRole('row', { name: /^OSHA 10/ })
    expect(within(osha).getByRole('cell', { name: '—' })).toBeTruthy()
    expect(within(osha).getByRole('cell', { name: 'All departments' })).toBeTruthy()
    expect(within(osha).getByRole('link', { name: 'OSHA 10' }).getAttribute('href')).toBe('https://osha.example')
  })

  it('edits the tier’s requirements: required toggle, remove, and add a type as required or optional', () => {
    render(section(true))
    expect(screen.getByRole('checkbox', { name: 'Required for Tier 1: OSHA 10', checked: true })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Remove OSHA 10 from Tier 1' })).toBeTruthy()
    const picker = screen.getByRole('combobox', { name: 'Certification to add to Tier 1' })
    const offered = optionsOf(picker)
    expect(offered).toContain('2 Forklift (T2)')
    expect(offered.some((o) => o.startsWith('1 '))).toBe(false)
    expect(screen.getByRole('button', { name: 'Add Requirement' })).toBeTruthy()
  })

  it('offers every field of the create form: URL training link, validity choices, upload required and active', () => {
    render(<TypeFormDialog editing={{ mode: 'add', tab: 'Service' }} onSaved={noop} onClose={noop} />)
    const dialog = screen.getByRole('dialog', { name: 'Add Certification' })
    for (const l of ['Name', 'Code', 'Training Link', 'Description']) expect(within(dialog).getByLabelText(l)).toBeTruthy()
    for (const l of ['Tier', 'Department', 'Validity']) expect(within(dialog).getByRole('combobox', { name: l })).toBeTruthy()
    expect((within(dialog).getByLabelText('Training Link') as HTMLInputElement).type).toBe('url')
    const validity = within(within(dialog).getByRole('combobox', { name: 'Validity' }))
      .getAllByRole('option')
      .map((o) => o.textContent)
    for (const o of ['Lifetime', '1 year', '2 years', '3 years', '5 years']) expect(validity).toContain(o)
    expect((within(dialog).getByRole('combobox', { name: 'Department' }) as HTMLSelectElement).value).toBe('Service')
    expect(within(dialog).getByRole('option', { name: 'Service', selected: true })).toBeTruthy()
    expect(within(dialog).getAllByRole('checkbox', { checked: true })).toHaveLength(2)
    expect(within(dialog).queryAllByRole('checkbox', { checked: false })).toHaveLength(0)
    expect(within(dialog).getByRole('button', { name: 'Create Certification' })).toBeTruthy()
  })

  it('fills the edit form with the stored type', () => {
    render(<TypeFormDialog editing={{ mode: 'edit', type: types[1]! }} onSaved={noop} onClose={noop} />)
    const dialog = screen.getByRole('dialog', { name: 'Edit Certification' })
    expect((within(dialog).getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('Forklift')
    const validity = within(dialog).getByRole('combobox', { name: 'Validity' }) as HTMLSelectElement
    expect(validity.value).toBe('36')
    expect(within(validity).getByRole('option', { selected: true }).textContent).toBe('3 years')
    expect(within(dialog).getByRole('button', { name: 'Update Certification' })).toBeTruthy()
  })

  it('shows department tabs as a tablist with All selected', () => {
    render(<CertificationManagementView navigate={noop} />, (c) => {
      c.setQueryData(adminKeys.types(), types)
      c.setQueryData(adminKeys.requirements(), requirements)
    })
    const list = screen.getByRole('tablist', { name: 'Departments' })
    for (const t of ['Service', 'Testing', 'Construction', 'Electricians']) expect(within(list).getByRole('tab', { name: t, selected: false }).tabIndex).toBe(-1)
    expect(within(list).getByRole('tab', { name: 'All', selected: true }).tabIndex).toBe(0)
    const panel = screen.getByRole('tabpanel', { name: 'All' })
    // One disclosure per tier section (open or closed), each the button of a heading.
    const disclosures = [...within(panel).queryAllByRole('button', { expanded: true }), ...within(panel).queryAllByRole('button', { expanded: false })]
    expect(disclosures).toHaveLength(4)
    for (const d of disclosures) expect(d.parentElement!.tagName).toBe('H3')
  })
})
