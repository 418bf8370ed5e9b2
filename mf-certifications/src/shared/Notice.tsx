import type { Announcement } from '@portal/ui-kit'

/**
 * The last success of a screen, shown and read: the status region stays in the page (one inserted
 * together with its text is often not read) and each notice is a new node, so the same text twice
 * is read twice (decision 0010). A detail (a run's figures) is a line of its own after the message.
 */
export const Notice = ({ notice }: { notice: Announcement | null }) => (
  <div role="status" className="pk-live">
    {notice ? (
      <div key={notice.id} className="pk-alert pk-alert--success">
        {notice.detail ? (
          <>
            <p className="pk-m0">{notice.text}</p>
            <p className="pk-m0">{notice.detail}</p>
          </>
        ) : (
          notice.text
        )}
      </div>
    ) : null}
  </div>
)
