// @vitest-environment happy-dom
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { contentPlaceOf, onContentOrigin } from './content-place.ts'
import { WrongAddress } from './ModulePlayer.tsx'

const placement = (origin: string) => ({ origin, portalOrigins: ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080'] })

describe('where course content plays for the address the portal was opened at', () => {
  it('is the registry’s content origin at one of the portal’s addresses', () => {
    expect(contentPlaceOf(placement('http://127.0.0.1:8081'), 'http://127.0.0.1:8080')).toEqual({ kind: 'here', origin: 'http://127.0.0.1:8081' })
    expect(contentPlaceOf(placement('http://[::1]:8081'), 'http://[::1]:8080')).toEqual({ kind: 'here', origin: 'http://[::1]:8081' })
  })
  it('is elsewhere at any other address: the first of the portal’s addresses is the one to use', () => {
    expect(contentPlaceOf(placement('http://localhost:8081'), 'http://devbox:8080')).toEqual({ kind: 'elsewhere', address: 'http://localhost:8080' })
    expect(contentPlaceOf(placement('http://localhost:8081'), 'http://localhost:9090')).toEqual({ kind: 'elsewhere', address: 'http://localhost:8080' })
  })
  it('is where the launch says when the registry does not tell', () => {
    expect(contentPlaceOf(undefined, 'http://devbox:8080')).toEqual({ kind: 'here', origin: null })
  })
  it('moves a launch’s URL onto that origin, path, query and fragment kept', () => {
    expect(onContentOrigin('http://localhost:8081/player/', 'http://127.0.0.1:8081')).toBe('http://127.0.0.1:8081/player/')
    expect(onContentOrigin('http://localhost:8081/api/content/eyJ.a.b/Safety%20Talk.pdf?x=1#page=2', 'http://127.0.0.1:8081')).toBe(
      'http://127.0.0.1:8081/api/content/eyJ.a.b/Safety%20Talk.pdf?x=1#page=2',
    )
    expect(onContentOrigin('/player/', 'http://127.0.0.1:8081')).toBe('http://127.0.0.1:8081/player/')
    expect(onContentOrigin('http://localhost:8081/player/', null)).toBe('http://localhost:8081/player/')
  })
})

describe('the course viewer at an address content may not be framed by', () => {
  it('says so instead of an empty frame, naming the address to use and linking to this page there', () => {
    const { container } = render(
      <WrongAddress
        address="http://localhost:8080"
        here={{ origin: 'http://devbox:8080', pathname: '/user-dashboard', search: '?course=7', hash: '' }}
        onGoBack={() => undefined}
      />,
    )
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain('Course content plays only when the portal is opened at http://localhost:8080. This page is open at http://devbox:8080.')
    expect(within(alert).getByRole('link', { name: 'Open This Page at http://localhost:8080' }).getAttribute('href')).toBe('http://localhost:8080/user-dashboard?course=7')
    expect(alert.textContent).toContain('PORTAL_ORIGINS')
    expect(container.querySelector('iframe')).toBeNull()
  })
})
