import type { PublicSignInProvider } from '@portal/contracts'
import type { ProviderSignOut } from './company-sign-in.ts'

/**
 * The company's sign-in options, first on the login page: each a link that starts the sign-in at
 * the provider (a navigation, not a script call: the provider's pages take over the window).
 */
export const CompanySignIn = ({ providers }: { providers: readonly PublicSignInProvider[] }) =>
  providers.length === 0 ? null : (
    <section className="pk-stack" aria-labelledby="company-sign-in-title">
      <h2 id="company-sign-in-title" className="pk-visually-hidden">
        Company sign-in
      </h2>
      {providers.map((p) => (
        <a key={p.key} className="pk-btn" href={p.start_url}>
          Sign in with {p.display_name}
        </a>
      ))}
      <p className="pk-muted">or sign in with your portal password</p>
    </section>
  )

/** After the portal's logout: the provider's own sign-out, offered (the person may still be signed in there). */
export const ProviderSignOutOffer = ({ offer }: { offer: ProviderSignOut }) => (
  <div role="status" className="pk-alert pk-alert--info pk-stack">
    <span>You are signed out of the portal. You may still be signed in at {offer.provider}.</span>
    <a className="pk-btn pk-btn--secondary" href={offer.url}>
      Sign out of {offer.provider} too
    </a>
  </div>
)
