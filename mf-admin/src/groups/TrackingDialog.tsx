import { DAY_OF_WEEK_OPTIONS, DEFAULT_REPORT, REPORT_FREQUENCIES, REPORT_FREQUENCY_LABELS, type NotificationRule, type ReportFrequency, type TrackingItem } from '@portal/contracts'
import { Alert, Button, EmptyState, Modal, Select, Spinner, TextField, errorMessage } from '@portal/ui-kit'
import { useEffect, useState } from 'react'
import { useAdminCourses } from '../courses/index.ts'
import { useAdminExams } from '../exams/index.ts'
import { useSaveTracking, useTracking } from './data/apiHooks.ts'
import { filterItems, itemKey } from './rule-view.ts'

const ItemList = ({ legend, items, selected, onToggle }: { legend: string; items: TrackingItem[]; selected: Map<string, TrackingItem>; onToggle: (i: TrackingItem) => void }) => (
  <fieldset className="pk-stack pk-border-0 pk-p0 pk-m0 pk-gap-xs">
    <legend className="pk-fw-semibold">{legend}</legend>
    {items.length === 0 ? <p className="pk-muted">None found</p> : null}
    {items.map((i) => (
      <label key={itemKey(i)} className="pk-check">
        <input type="checkbox" checked={selected.has(itemKey(i))} onChange={() => onToggle(i)} />
        {i.name}
      </label>
    ))}
  </fieldset>
)

/** The configure-tracking dialog (admin §2): report frequency, day of week for weekly only, and the tracked exams and courses, searchable. */
export const TrackingDialog = ({ rule, onClose, onSaved }: { rule: NotificationRule; onClose: () => void; onSaved: (message: string) => void }) => {
  const group = rule.user_group
  const tracking = useTracking(group)
  const exams = useAdminExams()
  const courses = useAdminCourses()
  const [frequency, setFrequency] = useState<ReportFrequency>(rule.report_frequency)
  const [day, setDay] = useState<number>(rule.report_day_of_week ?? DEFAULT_REPORT.dayOfWeek)
  const [selected, setSelected] = useState<Map<string, TrackingItem> | null>(null)
  const [search, setSearch] = useState('')
  useEffect(() => {
    if (tracking.data && selected === null) setSelected(new Map(tracking.data.trackingItems.map((i) => [itemKey(i), i])))
  }, [tracking.data, selected])
  const save = useSaveTracking(group, () => onSaved('Changes saved successfully!'))
  const saveConfiguration = () =>
    save.mutate({ ruleId: rule.id, trackingItems: [...(selected ?? new Map()).values()], reportFrequency: frequency, reportDayOfWeek: frequency === 'weekly' ? day : null })
  const toggle = (i: TrackingItem) =>
    setSelected((m) => {
      const next = new Map(m ?? [])
      if (next.has(itemKey(i))) next.delete(itemKey(i))
      else next.set(itemKey(i), i)
      return next
    })
  const examItems: TrackingItem[] = (exams.data ?? []).map((e) => ({ type: 'exam', id: e.id, name: e.name }))
  const courseItems: TrackingItem[] = (courses.data ?? []).map((c) => ({ type: 'course', id: c.id, name: c.title }))
  const loadError = tracking.error ?? exams.error ?? courses.error
  return (
    <Modal open title={`Configure Tracking: ${group}`} onClose={onClose}>
      <div className="pk-stack pk-wide">
        {loadError ? <Alert>{`Error loading tracking configuration: ${errorMessage(loadError, 'Failed to fetch data')}`}</Alert> : null}
        <div className="pk-row pk-items-end">
          <div className="pk-grow-200">
            <Select
              label="Report Frequency"
              options={REPORT_FREQUENCIES.map((f) => ({ value: f, label: REPORT_FREQUENCY_LABELS[f] }))}
              value={frequency}
              onChange={(e) => setFrequency(e.target.value as ReportFrequency)}
            />
          </div>
          {frequency === 'weekly' ? (
            <div className="pk-grow-200">
              <Select
                label="Day of Week"
                options={DAY_OF_WEEK_OPTIONS.map((d) => ({ value: String(d.value), label: d.label }))}
                value={String(day)}
                onChange={(e) => setDay(Number(e.target.value))}
              />
            </div>
          ) : null}
        </div>
        <TextField label="Search exams and courses" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        {tracking.isPending || exams.isPending || courses.isPending ? <Spinner label="Loading exams and courses..." /> : null}
        {selected && exams.data && courses.data ? (
          examItems.length + courseItems.length === 0 ? (
            <EmptyState>No exams or courses yet</EmptyState>
          ) : (
            <div className="pk-row pk-items-start">
              <div className="pk-grow-240">
                <ItemList legend="Exams" items={filterItems(examItems, search)} selected={selected} onToggle={toggle} />
              </div>
              <div className="pk-grow-240">
                <ItemList legend="Courses" items={filterItems(courseItems, search)} selected={selected} onToggle={toggle} />
              </div>
            </div>
          )
        ) : null}
        <p className="pk-muted" aria-live="polite">
          {selected ? `${selected.size} item${selected.size === 1 ? '' : 's'} tracked` : ''}
        </p>
        {save.isError ? <Alert>{`Error saving configuration: ${errorMessage(save.error, 'Failed to update notification rule')}`}</Alert> : null}
        <div className="pk-row pk-justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={saveConfiguration} disabled={save.isPending || selected === null}>
            {save.isPending ? 'Saving...' : 'Save Configuration'}
          </Button>
        </div>
      </div>
    </Modal>
  )
}
