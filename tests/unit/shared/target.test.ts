import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  addressProblem,
  AddressSchema,
  applyTargetPatch,
  createTarget,
  isIpv4,
  isIpv6,
  jumpChainNames,
  NewTargetSchema,
  sameTargetName,
  TargetPatchSchema,
  TargetSchema,
  targetLinkProblems,
  type NewTargetInput,
  type Target
} from '../../../src/shared/model/target'

const NOW = '2025-03-01T10:00:00.000Z'
const LATER = '2025-03-02T11:30:00.000Z'

function sshInput(overrides: Partial<Extract<NewTargetInput, { kind: 'ssh' }>> = {}): NewTargetInput {
  return { kind: 'ssh', name: 'web1', role: 'host', address: 'web1.example.com', user: 'root', auth: { method: 'agent' }, ...overrides }
}

function saved(input: NewTargetInput, id: string): Target {
  const result = createTarget(NewTargetSchema.parse(input), id, NOW)
  if (!result.ok) throw new Error(result.message)
  return result.target
}

describe('addressProblem', () => {
  it.each([
    'web1',
    'web-1.example.com',
    'host_with_underscore.lan',
    'example.com.',
    'localhost',
    '10.0.0.5',
    '255.255.255.255',
    '0.0.0.0',
    '::1',
    '::',
    '2001:db8::1',
    '2001:0db8:0000:0000:0000:ff00:0042:8329',
    'fe80::1%eth0',
    '::ffff:192.0.2.1',
    '1:2:3:4:5:6:7::'
  ])('accepts %s', (address) => {
    expect(addressProblem(address)).toBeUndefined()
    expect(AddressSchema.safeParse(address).success).toBe(true)
  })

  it.each([
    ['', 'an address is needed'],
    ['web 1', '"web 1" contains a space'],
    [' web1', 'contains a space'],
    ['web1\n', 'contains a control character'],
    ['-oProxyCommand=touch /tmp/pwned', 'starts with "-", which ssh would read as an option'],
    ['$(touch pwned); rm -rf ~', 'contains a space'],
    ['$(touch${IFS}pwned)', '"$(touch${IFS}pwned)" contains "$", which is not allowed in a host name'],
    ["';reboot#", `"';reboot#" contains "'", which is not allowed in a host name`],
    ['a;b', 'contains ";"'],
    ['a|b', 'contains "|"'],
    ['a`id`', 'contains "`"'],
    ['a&b', 'contains "&"'],
    ['a>b', 'contains ">"'],
    ['h*', 'contains "*"'],
    ['root@web1', 'contains "@"; put the user name in the user field'],
    ['web1:2222', '"web1:2222" looks like host:port; put the port in the port field'],
    ['[::1]', 'write an IPv6 address without brackets (::1)'],
    ['gg::1', '"gg::1" is not a valid IPv6 address'],
    ['1:2:3:4:5:6:7:8:9', 'is not a valid IPv6 address'],
    ['1::2::3', 'is not a valid IPv6 address'],
    ['256.1.1.1', '"256.1.1.1" is not a valid IPv4 address'],
    ['1.2.3', 'is not a valid IPv4 address'],
    ['01.2.3.4', 'is not a valid IPv4 address'],
    ['a..b', 'has an empty part between dots'],
    ['web-.example.com', 'the part "web-" must be letters, digits'],
    ['https://web1', 'contains "/"'],
    [`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}x`, 'longer than 253 characters']
  ])('rejects %j saying what is wrong', (address, message) => {
    expect(addressProblem(address)).toContain(message)
    const parsed = AddressSchema.safeParse(address)
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues[0]?.message).toContain(message)
  })

  it('never accepts anything a shell or ssh could read as more than one host', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const problem = addressProblem(text)
        if (problem === undefined) {
          expect(text).toMatch(/^[A-Za-z0-9_.:%-]+$/)
          expect(text.startsWith('-')).toBe(false)
        } else {
          expect(problem.length).toBeGreaterThan(0)
        }
      }),
      { numRuns: 2000 }
    )
  })

  it('tells IPv4 and IPv6 forms apart exactly', () => {
    expect([isIpv4('192.168.1.1'), isIpv4('192.168.1'), isIpv4('192.168.1.256'), isIpv4('1.2.3.4.5')]).toEqual([true, false, false, false])
    expect([isIpv6('::'), isIpv6('1::'), isIpv6(':1'), isIpv6('1:2:3:4:5:6:7:8'), isIpv6('1:2:3:4:5:6:7:8::')]).toEqual([
      true,
      true,
      false,
      true,
      false
    ])
    expect([isIpv6('::1.2.3.4'), isIpv6('1:2:3:4:5:6:1.2.3.4'), isIpv6('1:2:3:4:5:6:7:1.2.3.4'), isIpv6('fe80::1%'), isIpv6('fe80::1%a%b')]).toEqual([
      true,
      true,
      false,
      false,
      false
    ])
  })
})

describe('NewTargetSchema', () => {
  it('fills the defaults: port 22, no sudo, no labels, no extra addresses, an unencrypted key', () => {
    expect(NewTargetSchema.parse(sshInput({ auth: { method: 'key', keyPath: '/root/.ssh/id_ed25519' } }))).toEqual({
      kind: 'ssh',
      name: 'web1',
      role: 'host',
      address: 'web1.example.com',
      port: 22,
      user: 'root',
      auth: { method: 'key', keyPath: '/root/.ssh/id_ed25519', hasPassphrase: false },
      addresses: {},
      sudo: 'none',
      labels: {}
    })
  })

  it('accepts a guest with its physical host, network addresses, labels and detected OS facts', () => {
    const input = sshInput({
      name: '  guest-wb  ',
      role: 'guest',
      hostId: 'host-1',
      port: 2222,
      addresses: { private: '10.0.0.7', public: '203.0.113.9' },
      sudo: 'password',
      labels: { hypervisor: 'kvm', cache: 'writeback', 'disk.bus': 'virtio' },
      os: { family: 'linux', name: 'Debian GNU/Linux 12 (bookworm)', kernel: '6.1.0-18-amd64', arch: 'x86_64', virtualization: 'kvm', detectedAt: NOW }
    })
    const parsed = NewTargetSchema.parse(input)
    expect(parsed.name).toBe('guest-wb')
    expect(parsed).toMatchObject({ role: 'guest', hostId: 'host-1', port: 2222, sudo: 'password' })
    expect(parsed.addresses).toEqual({ private: '10.0.0.7', public: '203.0.113.9' })
    expect(parsed.labels).toEqual({ hypervisor: 'kvm', cache: 'writeback', 'disk.bus': 'virtio' })
  })

  it('describes "This computer" with no SSH fields', () => {
    expect(NewTargetSchema.parse({ kind: 'local', name: 'This computer', role: 'host' })).toEqual({
      kind: 'local',
      name: 'This computer',
      role: 'host',
      addresses: {},
      sudo: 'none',
      labels: {}
    })
    const withAddress = NewTargetSchema.safeParse({ kind: 'local', name: 'here', role: 'host', address: 'x' })
    expect(withAddress.success).toBe(false)
    expect(withAddress.error?.issues[0]?.code).toBe('unrecognized_keys')
  })

  it('has no room for a secret value anywhere', () => {
    for (const extra of [{ password: 'hunter2' }, { passphrase: 'x' }, { secret: 'x' }]) {
      expect(NewTargetSchema.safeParse({ ...sshInput(), ...extra }).success).toBe(false)
    }
    for (const auth of [
      { method: 'password', password: 'hunter2' },
      { method: 'key', keyPath: '/k', hasPassphrase: true, passphrase: 'x' },
      { method: 'keyboard-interactive', answers: ['x'] }
    ]) {
      expect(NewTargetSchema.safeParse({ ...sshInput(), auth }).success).toBe(false)
    }
    for (const auth of [{ method: 'password' }, { method: 'keyboard-interactive' }, { method: 'agent' }]) {
      expect(NewTargetSchema.safeParse({ ...sshInput(), auth }).success).toBe(true)
    }
  })

  it.each([
    [{ name: '   ' }, 'name', 'a target needs a name'],
    [{ name: 'x'.repeat(65) }, 'name', 'at most 64 characters'],
    [{ name: 'a\u0007b' }, 'name', 'control characters'],
    [{ port: 0 }, 'port', 'between 1 and 65535'],
    [{ port: 65536 }, 'port', 'between 1 and 65535'],
    [{ port: 22.5 }, 'port', 'whole number'],
    [{ user: '-oProxyCommand=x' }, 'user', 'starts with "-"'],
    [{ user: 'root;reboot' }, 'user', 'may contain only'],
    [{ user: '' }, 'user', 'a user name is needed'],
    [{ address: 'web1;reboot' }, 'address', 'contains ";"'],
    [{ addresses: { private: '10.0.0.300' } }, 'addresses.private', 'not a valid IPv4 address'],
    [{ labels: { 'bad key': 'x' } }, 'labels.bad key', 'a label name is'],
    [{ hostId: 'h1' }, 'hostId', 'only a guest runs on a physical host'],
    [{ jumpHostId: 'no spaces allowed' }, 'jumpHostId', 'a target id is']
  ] as const)('rejects %j at %s', (overrides, where, message) => {
    const result = NewTargetSchema.safeParse({ ...sshInput(), ...overrides })
    expect(result.success).toBe(false)
    const issue = result.error?.issues.find((i) => i.path.join('.') === where)
    expect(issue?.message).toContain(message)
  })

  it('takes Windows user names as they are written', () => {
    for (const user of ['Administrator', 'CORP\\jsmith', 'jsmith@corp.example', 'John Smith', 'HOST$', 'Пользователь']) {
      expect(NewTargetSchema.safeParse(sshInput({ user })).success).toBe(true)
    }
    for (const user of [' root', 'root ', 'a"b', 'a$b']) expect(NewTargetSchema.safeParse(sshInput({ user })).success).toBe(false)
  })
})

describe('TargetSchema', () => {
  it('adds id and dates to a new target', () => {
    const target = saved(sshInput(), 'id-1')
    expect(target).toMatchObject({ id: 'id-1', createdAt: NOW, updatedAt: NOW, name: 'web1' })
    expect(TargetSchema.parse(JSON.parse(JSON.stringify(target)))).toEqual(target)
  })

  it('refuses a target that is its own jump host or physical host', () => {
    const selfJump = createTarget(NewTargetSchema.parse(sshInput({ jumpHostId: 'id-1' })), 'id-1', NOW)
    expect(selfJump).toEqual({ ok: false, message: 'jumpHostId: a target cannot be its own jump host' })
    const selfHost = createTarget(NewTargetSchema.parse(sshInput({ role: 'guest', hostId: 'id-1' })), 'id-1', NOW)
    expect(selfHost).toEqual({ ok: false, message: 'hostId: a target cannot be its own physical host' })
  })

  it('refuses dates that are not ISO 8601', () => {
    const target = saved(sshInput(), 'id-1')
    expect(TargetSchema.safeParse({ ...target, createdAt: 'yesterday' }).success).toBe(false)
    expect(TargetSchema.safeParse({ ...target, createdAt: '2025-03-01T10:00:00+02:00' }).success).toBe(true)
  })
})

describe('applyTargetPatch', () => {
  const web = saved(sshInput({ jumpHostId: 'bastion', labels: { hypervisor: 'kvm' } }), 'web')

  it('changes the fields given, keeps the rest and id and createdAt, and stamps updatedAt', () => {
    const result = applyTargetPatch(web, TargetPatchSchema.parse({ name: ' web-one ', port: 2200 }), LATER)
    expect(result).toEqual({ ok: true, target: { ...web, name: 'web-one', port: 2200, updatedAt: LATER } })
  })

  it('clears an optional field given as null and replaces labels as a whole', () => {
    const result = applyTargetPatch(web, TargetPatchSchema.parse({ jumpHostId: null, labels: { cache: 'none' } }), LATER)
    if (!result.ok) throw new Error(result.message)
    expect(result.target).not.toHaveProperty('jumpHostId')
    expect(result.target.labels).toEqual({ cache: 'none' })
  })

  it('drops the SSH fields when a target becomes this computer, and needs them back to become SSH again', () => {
    const local = applyTargetPatch(web, TargetPatchSchema.parse({ kind: 'local' }), LATER)
    if (!local.ok) throw new Error(local.message)
    expect(Object.keys(local.target).sort()).toEqual(['addresses', 'createdAt', 'id', 'kind', 'labels', 'name', 'role', 'sudo', 'updatedAt'])
    const back = applyTargetPatch(local.target, TargetPatchSchema.parse({ kind: 'ssh' }), LATER)
    expect(back.ok).toBe(false)
    if (!back.ok) expect(back.message).toMatch(/address: .*user: .*auth: /)
    const ssh = applyTargetPatch(local.target, TargetPatchSchema.parse({ kind: 'ssh', address: '10.1.1.1', user: 'admin', auth: { method: 'password' } }), LATER)
    expect(ssh.ok && ssh.target).toMatchObject({ kind: 'ssh', address: '10.1.1.1', port: 22, user: 'admin' })
  })

  it('drops hostId when a guest becomes a host', () => {
    const guest = saved(sshInput({ role: 'guest', hostId: 'h1' }), 'g1')
    const result = applyTargetPatch(guest, TargetPatchSchema.parse({ role: 'host' }), LATER)
    expect(result.ok && result.target).not.toHaveProperty('hostId')
    const still = applyTargetPatch(guest, TargetPatchSchema.parse({ role: 'host', hostId: 'h1' }), LATER)
    expect(still).toEqual({ ok: false, message: 'hostId: only a guest runs on a physical host: remove hostId or set the role to "guest"' })
  })

  it('refuses unknown fields and secrets in a patch', () => {
    expect(TargetPatchSchema.safeParse({ password: 'x' }).success).toBe(false)
    expect(TargetPatchSchema.safeParse({ id: 'other' }).success).toBe(false)
    expect(TargetPatchSchema.safeParse({ createdAt: NOW }).success).toBe(false)
  })
})

describe('targetLinkProblems', () => {
  const bastion = saved(sshInput({ name: 'bastion', address: 'bastion.example.com' }), 'b')
  const host = saved(sshInput({ name: 'kvm-host', address: '10.0.0.2', jumpHostId: 'b' }), 'h')
  const guest = saved(sshInput({ name: 'vm1', role: 'guest', hostId: 'h', address: '10.0.0.3', jumpHostId: 'h' }), 'g')
  const here = saved({ kind: 'local', name: 'This computer', role: 'host' }, 'l')

  it('finds nothing wrong in a consistent collection, and gives jump chains nearest first', () => {
    expect(targetLinkProblems([bastion, host, guest, here])).toEqual([])
    expect(jumpChainNames(guest, [bastion, host, guest, here])).toEqual(['bastion', 'kvm-host'])
    expect(jumpChainNames(bastion, [bastion, host, guest])).toEqual([])
  })

  it('names duplicate names, compared without case', () => {
    const twin = saved(sshInput({ name: 'BASTION' }), 'b2')
    expect(targetLinkProblems([bastion, twin])).toEqual([
      { code: 'duplicate-name', message: 'The name "BASTION" is already used by "bastion"; target names must be unique (case does not count).' }
    ])
    expect(sameTargetName(' Web1', 'wEB1 ')).toBe(true)
  })

  it('names unknown and unusable jump hosts and physical hosts', () => {
    const lost = saved(sshInput({ name: 'lost', jumpHostId: 'nope' }), 'x1')
    const viaLocal = saved(sshInput({ name: 'via-local', jumpHostId: 'l' }), 'x2')
    const onGuest = saved(sshInput({ name: 'nested', role: 'guest', hostId: 'g' }), 'x3')
    const orphan = saved(sshInput({ name: 'orphan', role: 'guest', hostId: 'gone' }), 'x4')
    expect(targetLinkProblems([bastion, host, guest, here, lost, viaLocal, onGuest, orphan]).map((p) => `${p.code}: ${p.message}`)).toEqual([
      'missing-target: "lost" jumps through a target with id "nope", which is not a saved target.',
      'wrong-kind: "via-local" cannot jump through "This computer": it is this computer, not an SSH target.',
      'wrong-kind: "nested" names "vm1" as its physical host, but "vm1" is a guest; pick a target whose role is host.',
      'missing-target: "orphan" names a physical host with id "gone", which is not a saved target.'
    ])
  })

  it('names every target of a jump loop, once per loop', () => {
    const a = saved(sshInput({ name: 'a', jumpHostId: 'c' }), 'a')
    const b = saved(sshInput({ name: 'b', jumpHostId: 'a' }), 'b')
    const c = saved(sshInput({ name: 'c', jumpHostId: 'b' }), 'c')
    const d = saved(sshInput({ name: 'd', jumpHostId: 'a' }), 'd')
    expect(targetLinkProblems([a, b, c, d])).toEqual([
      { code: 'jump-loop', message: 'The jump hosts form a loop: "a" → "c" → "b" → "a". Remove one of these jump hosts.' }
    ])
    expect(jumpChainNames(d, [a, b, c, d])).toEqual(['b', 'c', 'a'])
  })
})
