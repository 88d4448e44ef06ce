/**
 * `npm run lab -- build | up NAME [...] | down NAME | status | ssh NAME [COMMAND...]`
 * (run with tsx). See docs/lab.md.
 */
import { spawn } from 'node:child_process'
import { LAB_USAGE, parseLabArgs, type LabCommand } from './cli-args'
import { buildImage, guestHandle, hostKeyFingerprint, labStatus, sshArgs, startGuest, stopGuest, type Guest } from './driver'
import { LabUsageError } from './guest-spec'

function say(line: string): void {
  process.stdout.write(`${line}\n`)
}

function describeGuest(g: Guest, hostKey: string): string[] {
  const disks = `/dev/${g.devices.root} root, /dev/${g.devices.raw} raw (no filesystem), /dev/${g.devices.data} ext4 at /data`
  const setup = [`cache=${g.spec.cache}`, `io=${g.spec.io}`, g.spec.queues !== undefined ? `${g.spec.queues} queues` : undefined, g.spec.bus, `${g.spec.cpus} vCPU`, `${g.spec.memoryMiB} MiB`]
  const lines = [
    `${g.name} is up (${g.accel.toUpperCase()}, ${g.bootSeconds?.toFixed(1) ?? '?'} s to SSH), qemu PID ${g.pid}`,
    `  ssh:       ssh -i ${g.keyPath} -o UserKnownHostsFile=${g.knownHostsFile} -p ${g.sshPort} root@127.0.0.1   (or: npm run lab -- ssh ${g.name})`,
    `  key:       ${g.keyPath}`,
    `  host key:  ${hostKey} (every guest of this image has it)`,
    `  iperf3:    127.0.0.1:${g.iperfPorts[0]} -> guest port 5201, 127.0.0.1:${g.iperfPorts[1]} -> 5202`,
    `  disks:     ${disks}`,
    `  setup:     ${setup.filter(Boolean).join(', ')}`,
    `  serial:    ${g.serialLog}`
  ]
  if (g.domain && g.libvirtUri) {
    lines.push(`  libvirt:   domain ${g.domain}; virsh -c '${g.libvirtUri}' dumpxml ${g.domain}`)
    lines.push(`             (for VirtBench to read it on this host: export LIBVIRT_DEFAULT_URI='${g.libvirtUri}')`)
  }
  lines.push(
    '',
    'Measure it against this computer (virtbench prints the host key it accepts: it must be the one above):',
    `  npx virtbench run --baseline phys=local --variant ${g.name}=${g.url} --identity ${g.keyPath} --pack block-dd --quick --accept-new-host-keys --out /tmp/virtbench-${g.name}-$(date +%s)`
  )
  return lines
}

async function main(command: LabCommand): Promise<number> {
  switch (command.kind) {
    case 'help':
      say(LAB_USAGE)
      return 0
    case 'build': {
      const result = await buildImage({ log: say })
      say(result.built ? `built the lab image in ${result.seconds.toFixed(0)} s: ${result.dir}` : `the lab image is already built (nothing to do): ${result.dir}`)
      return 0
    }
    case 'up': {
      const image = await buildImage({ log: say })
      const guest = await startGuest({ ...command.guest, ...(command.bootTimeoutSeconds !== undefined ? { bootTimeoutSeconds: command.bootTimeoutSeconds } : {}), log: say })
      for (const line of describeGuest(guest, hostKeyFingerprint(image))) say(line)
      return 0
    }
    case 'down': {
      const stopped = await stopGuest(command.name)
      if (!stopped) {
        process.stderr.write(`lab: there is no guest called ${command.name} (npm run lab -- status lists them)\n`)
        return 1
      }
      say(`${command.name} stopped and its disks removed`)
      return 0
    }
    case 'status': {
      const s = await labStatus()
      say(`lab directory: ${s.dir}`)
      say(s.image ? `image: ${s.image.dir} (kernel ${s.image.kernelRelease})` : 'image: not built (npm run lab -- build)')
      for (const old of s.otherImages) say(`  an older image, no longer used (remove it to free the space): ${old}`)
      if (s.accel) say(`accelerator: ${s.accel.toUpperCase()}${s.accel === 'tcg' ? ' (software emulation: /dev/kvm is missing or cannot run a guest)' : ''}`)
      say(s.libvirtd ? `libvirtd: PID ${s.libvirtd.pid}, ${s.libvirtd.uri}` : 'libvirtd: not running')
      if (s.guests.length === 0) say('guests: none')
      for (const g of s.guests) {
        const where = g.running ? `SSH 127.0.0.1:${g.sshPort}, qemu PID ${g.pid}` : 'not running (its folder is left; npm run lab -- down removes it)'
        say(`guest ${g.name}: ${where}; cache=${g.spec.cache} ${g.spec.bus}${g.spec.queues !== undefined ? ` ${g.spec.queues} queues` : ''}${g.domain ? `, libvirt domain ${g.domain}` : ''}`)
      }
      return 0
    }
    case 'ssh': {
      const guest = guestHandle(command.name)
      if (!guest) {
        process.stderr.write(`lab: no guest called ${command.name} is running (npm run lab -- up ${command.name})\n`)
        return 1
      }
      const child = spawn('ssh', [...sshArgs(guest, command.command.length === 0 ? ['-t'] : []), ...command.command], { stdio: 'inherit' })
      return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)))
    }
  }
}

let command: LabCommand
try {
  command = parseLabArgs(process.argv.slice(2))
} catch (err) {
  process.stderr.write(`lab: ${(err as Error).message}\n`)
  process.exit(2)
}
main(command).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`lab: ${err instanceof LabUsageError ? '' : 'failed: '}${(err as Error).message}\n`)
    process.exit(err instanceof LabUsageError ? 2 : 1)
  }
)
