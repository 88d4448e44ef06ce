import { randomUUID } from 'node:crypto'
import type { HostKeyDecision, HostKeyQuestion } from '../../shared/targets-contract'
import type { HostKeyQuestion as SshHostKeyQuestion } from '../ssh/host-key'

/** How long a host-key question waits for a person before it counts as rejected. */
export const HOST_KEY_DECISION_TIMEOUT_MS = 5 * 60_000

interface Pending {
  resolve: (decision: HostKeyDecision) => void
  timer: NodeJS.Timeout
}

/**
 * Host-key questions waiting for a person: `ask` publishes one (the renderer shows the dialog)
 * and waits; `decide` answers it. Unanswered questions are rejected after a timeout, so a
 * connection never waits forever and never accepts a key by default.
 */
export class HostKeyDecisions {
  private readonly pending = new Map<string, Pending>()

  constructor(
    private readonly publish: (question: HostKeyQuestion) => void,
    private readonly timeoutMs = HOST_KEY_DECISION_TIMEOUT_MS
  ) {}

  ask(question: Omit<HostKeyQuestion, 'requestId'>): Promise<HostKeyDecision> {
    const requestId = randomUUID()
    return new Promise<HostKeyDecision>((resolve) => {
      const timer = setTimeout(() => this.settle(requestId, 'reject'), this.timeoutMs)
      timer.unref()
      this.pending.set(requestId, { resolve, timer })
      this.publish({ ...question, requestId })
    })
  }

  /** True when the question was still waiting. */
  decide(requestId: string, decision: HostKeyDecision): boolean {
    return this.settle(requestId, decision)
  }

  /** Rejects every waiting question (the window closed, the server stops). */
  rejectAll(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, 'reject')
  }

  private settle(requestId: string, decision: HostKeyDecision): boolean {
    const pending = this.pending.get(requestId)
    if (!pending) return false
    this.pending.delete(requestId)
    clearTimeout(pending.timer)
    pending.resolve(decision)
    return true
  }
}

/** The question people see for a key the SSH layer met: a jump host is named as one. */
export function hostKeyQuestionOf(q: SshHostKeyQuestion): Omit<HostKeyQuestion, 'requestId'> {
  return {
    targetName: q.role === 'jump' ? `${q.label} (jump host)` : q.label,
    host: q.host,
    port: q.port,
    keyType: q.keyType,
    fingerprint: q.fingerprint
  }
}
