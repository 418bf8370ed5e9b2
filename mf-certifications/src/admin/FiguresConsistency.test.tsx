import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { ConsistencyReport } from '@portal/contracts'
import { FiguresConsistencyView, consistencyHeadline } from './FiguresConsistency.tsx'

const noop = () => undefined
const report = (over: Partial<ConsistencyReport> = {}): ConsistencyReport => ({
  consistent: true,
  as_of: '2026-11-27',
  checked_at: '2026-11-28T08:30:00.000Z',
  technicians: 8,
  difference_count: 0,
  differences: [],
  ...over,
})

describe('the compliance figures check on Certification Management (issue 23)', () => {
  it('says "All figures consistent" with what was checked', () => {
    const html = renderToStaticMarkup(<FiguresConsistencyView report={report()} checking={false} onCheck={noop} />)
    expect(html).toContain('<strong class="ct-badge ct-tone--green">All figures consistent</strong>')
    expect(html).toContain('8 technicians checked against the team dashboard, the admin overview and notification management, as of Nov 27, 2026.')
    expect(html).toContain('>Check Again</button>')
  })

  it('lists each figure that differs, with the screen, the row, what it shows and what the records say', () => {
    const differences = [
      { surface: 'Team member figures', key: 'Pat Portland (u-1)', field: 'met_count', shown: 3, expected: 2 },
      { surface: 'Certification Notification Management', key: 'No branch', field: 'technicians', shown: null, expected: 1 },
    ]
    const html = renderToStaticMarkup(
      <FiguresConsistencyView report={report({ consistent: false, difference_count: 250, differences })} checking={false} onCheck={noop} />,
    )
    expect(consistencyHeadline(report({ consistent: false, difference_count: 1 }))).toBe('1 figure differs from the certification records')
    expect(html).toContain('250 figures differ from the certification records.')
    for (const col of ['Screen', 'Row', 'Figure', 'Shown', 'From the records']) expect(html).toContain(`<th scope="col">${col}</th>`)
    expect(html).toContain('<tr><td>Team member figures</td><th scope="row">Pat Portland (u-1)</th><td>met count</td><td>3</td><td>2</td></tr>')
    expect(html).toContain('<td>missing</td><td>1</td>')
    expect(html).toContain('The first 2 of 250 are listed.')
  })

  it('shows progress while the first check runs', () => {
    expect(renderToStaticMarkup(<FiguresConsistencyView report={undefined} checking onCheck={noop} />)).toContain('Checking figures...')
  })
})
