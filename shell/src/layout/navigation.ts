import { DASHBOARD_SECTIONS, type User } from '@portal/contracts'

/** A section of the portal in the header's navigation. */
export interface Section {
  label: string
  /** A path, with a fragment for a section of a page (`/user-dashboard#my-courses`). */
  to: string
}

/**
 * The sections `user` may open, in the header's order: the learner's own (dashboard, courses,
 * exams, certifications), the team for managers (and admins, who see the Team Management card),
 * the admin dashboard for admins.
 */
export function sectionsFor(user: Pick<User, 'is_admin' | 'is_manager'>): Section[] {
  const sections: Section[] = [
    { label: 'Dashboard', to: '/user-dashboard' },
    { label: 'Courses', to: `/user-dashboard#${DASHBOARD_SECTIONS.courses}` },
    { label: 'Exams', to: `/user-dashboard#${DASHBOARD_SECTIONS.exams}` },
    { label: 'Certifications', to: '/technician/profile' },
  ]
  if (user.is_manager || user.is_admin) sections.push({ label: 'Team', to: '/manager/dashboard' })
  if (user.is_admin) sections.push({ label: 'Admin', to: '/admin-dashboard' })
  return sections
}

/** Whether `section` is the page at `pathname` + `hash` (a fragment link is current only with its fragment). */
export function isCurrent(section: Section, pathname: string, hash: string): boolean {
  const [path, fragment = ''] = section.to.split('#')
  return path === pathname && fragment === hash.replace(/^#/, '')
}
