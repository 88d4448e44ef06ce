/**
 * fio's job-file syntax (an INI file), read as fio reads it: `[section]` headers, `key=value`
 * or bare `key` options, `;` and `#` starting a comment anywhere on a line, blanks around keys
 * and values dropped. Sections named `global...` set options for the jobs after them.
 */

/** One option as written, with the line it is on (from 1). */
export interface JobFileOption {
  key: string
  /** Undefined for a bare flag such as `time_based`. */
  value?: string
  line: number
}

export interface JobFileSection {
  name: string
  line: number
  global: boolean
  options: JobFileOption[]
}

/** Something in the text that is not job-file syntax, or that VirtBench will not run. */
export interface JobFileProblem {
  line: number
  /** The section it is in; null before the first section. */
  section: string | null
  /** The option it is about, when it is about one. */
  option: string | null
  /** What is wrong and what to do, in words. */
  message: string
}

export interface ParsedJobFile {
  sections: JobFileSection[]
  problems: JobFileProblem[]
}

const SECTION = /^\[([^\]]*)\]$/

/** Whether fio treats a section as global options rather than a job. */
export function isGlobalSection(name: string): boolean {
  return name.startsWith('global')
}

export function parseJobFile(text: string): ParsedJobFile {
  const sections: JobFileSection[] = []
  const problems: JobFileProblem[] = []
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1
    const content = raw.replace(/[;#].*$/, '').trim()
    if (content === '') return
    const current = sections.at(-1)
    const header = SECTION.exec(content)
    if (header) {
      const name = header[1]!.trim()
      if (name === '') problems.push({ line, section: null, option: null, message: 'a section header "[]" has no name; name the job, like [virt]' })
      else sections.push({ name, line, global: isGlobalSection(name), options: [] })
      return
    }
    if (/^include\s/i.test(content)) {
      problems.push({
        line,
        section: current?.name ?? null,
        option: 'include',
        message: 'the job file includes another file, which VirtBench does not upload or check; paste that file\'s sections into this one'
      })
      return
    }
    const eq = content.indexOf('=')
    const key = (eq < 0 ? content : content.slice(0, eq)).trim().toLowerCase()
    const value = eq < 0 ? undefined : content.slice(eq + 1).trim()
    if (!current) {
      problems.push({ line, section: null, option: key, message: `the option ${key} comes before any [section]; fio refuses that: put it under [global] or a job's section` })
      return
    }
    if (key === '' || /\s/.test(key)) {
      problems.push({ line, section: current.name, option: null, message: `"${content}" is not an option: write key=value (like rw=randread) or a bare flag (like time_based)` })
      return
    }
    current.options.push(value === undefined ? { key, line } : { key, value, line })
  })
  return { sections, problems }
}

/** A problem as one line a person reads: where it is, then what to do. */
export function describeJobFileProblem(problem: JobFileProblem): string {
  const where = [`line ${problem.line}`, problem.section === null ? undefined : `[${problem.section}]`, problem.option ?? undefined].filter(Boolean).join(', ')
  return `job file ${where}: ${problem.message}`
}
