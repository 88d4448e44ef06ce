import type { ReactElement, ReactNode } from 'react'
import { Icon, type IconName } from './icons'

/** What a screen shows before there is anything real to show: never placeholder numbers. */
export function EmptyState({
  icon,
  title,
  children
}: {
  icon: IconName
  title: string
  children: ReactNode
}): ReactElement {
  return (
    <section className="empty-state" aria-label={title}>
      <div className="empty-state-icon">
        <Icon name={icon} size={28} />
      </div>
      <h2>{title}</h2>
      <div className="empty-state-body">{children}</div>
    </section>
  )
}

export function PageHeader({ title, lead }: { title: string; lead: string }): ReactElement {
  return (
    <header className="page-header">
      <h1>{title}</h1>
      <p className="lead">{lead}</p>
    </header>
  )
}
