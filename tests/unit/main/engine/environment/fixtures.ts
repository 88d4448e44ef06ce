import { readFileSync } from 'node:fs'
import path from 'node:path'

export const FIXTURES = path.resolve(__dirname, '../../../../fixtures/environment')

/** A libvirt domain XML of tests/fixtures/environment/libvirt (see its README). */
export function libvirtXml(name: string): string {
  return readFileSync(path.join(FIXTURES, 'libvirt', `${name}.xml`), 'utf8')
}

/** Real environment.sh output of tests/fixtures/environment (see its README). */
export function environmentOutput(name: string): string {
  return readFileSync(path.join(FIXTURES, `${name}.txt`), 'utf8')
}
