import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Tabs } from './Tabs.tsx'

describe('tabs', () => {
  it('renders a labelled tablist with one tab in the Tab order and the selected tab’s panel', () => {
    const html = renderToStaticMarkup(
      <Tabs label="Departments" tabs={['Service', 'All']} selected="All" onSelect={() => undefined} idOf={(t) => `dept-${t}`}>
        <p>panel</p>
      </Tabs>,
    )
    expect(html).toContain('<div role="tablist" aria-label="Departments" class="pk-tabs">')
    expect(html).toContain('id="dept-Service" class="pk-tab" aria-selected="false" aria-controls="dept-Service-panel" tabindex="-1">Service</button>')
    expect(html).toContain('id="dept-All" class="pk-tab" aria-selected="true" aria-controls="dept-All-panel" tabindex="0">All</button>')
    expect(html).toContain('<div role="tabpanel" id="dept-All-panel" aria-labelledby="dept-All" tabindex="0"><p>panel</p></div>')
  })
})
