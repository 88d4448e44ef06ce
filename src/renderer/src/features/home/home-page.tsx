import type { ReactElement } from 'react'
import { PageHeader } from '../../components/empty-state'
import { Icon } from '../../components/icons'
import { useAppStore, type Page } from '../../store'

const steps: { page: Page; title: string; text: string }[] = [
  {
    page: 'targets',
    title: 'Add your machines',
    text: 'The physical host and the guests on it, reached over SSH with your existing keys and known_hosts.'
  },
  {
    page: 'comparison',
    title: 'Choose what to compare',
    text: 'The host is the 100 % baseline; each guest is a variant with its storage backend, disk cache, queues, bus and network path.'
  },
  {
    page: 'runs',
    title: 'Read the overhead',
    text: 'fio, dd, iperf3, ping, bonnie++, iozone, UnixBench and mbw run on every target; each result shows its relative %, the raw output and the command behind it.'
  }
]

export function HomePage(): ReactElement {
  const navigate = useAppStore((s) => s.navigate)
  return (
    <div className="page">
      <PageHeader
        title="What does virtualization cost you?"
        lead="VirtBench measures how much slower a guest's disk, network, CPU and memory are than its physical host's, under each setup choice."
      />
      <ol className="steps">
        {steps.map((step, index) => (
          <li key={step.page}>
            <button type="button" className="step" onClick={() => navigate(step.page)}>
              <span className="step-number">{index + 1}</span>
              <span className="step-text">
                <strong>{step.title}</strong>
                <span>{step.text}</span>
              </span>
              <Icon name={step.page === 'targets' ? 'targets' : step.page === 'runs' ? 'runs' : 'comparison'} />
            </button>
          </li>
        ))}
      </ol>
    </div>
  )
}
