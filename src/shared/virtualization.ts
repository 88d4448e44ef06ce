/**
 * What a machine runs on, decided once from the same facts wherever VirtBench asks: the
 * environment capture (environment.sh) and the connection test's OS probe print these facts under
 * the same names, and both decide with `decideVirtualization`, so the Targets page, preflight and
 * the results never disagree (a container on a KVM guest is "kvm", with the container noted).
 */

/** The raw facts, as the scripts print them (`virt_systemd`, `container_systemd`, ...). */
export interface VirtFacts {
  /** `systemd-detect-virt --vm`. */
  systemd?: string
  /** `systemd-detect-virt --container`. */
  container?: string
  /** `virt-what` (root only), its lines joined by spaces. */
  virtWhat?: string
  dmiVendor?: string
  dmiProduct?: string
  /** /sys/hypervisor/type. */
  hypervisorType?: string
  /** The CPUID hypervisor bit in /proc/cpuinfo: yes or no. */
  hypervisorFlag?: string
}

/** The fact names the scripts print, and the field of VirtFacts each fills. */
export const VIRT_FACT_NAMES: Readonly<Record<string, keyof VirtFacts>> = {
  virt_systemd: 'systemd',
  container_systemd: 'container',
  virt_what: 'virtWhat',
  dmi_vendor: 'dmiVendor',
  dmi_product: 'dmiProduct',
  hypervisor_type: 'hypervisorType',
  cpu_hypervisor_flag: 'hypervisorFlag'
}

export interface VirtDecision {
  /** In systemd-detect-virt's words ("kvm", "microsoft", "none"), or "vm-other". */
  virtualization?: string
  /** Which fact decided it. */
  source?: 'systemd-detect-virt' | 'virt-what' | 'dmi' | 'sysfs' | 'cpuinfo'
  /** The container it runs in, when it runs in one. */
  container?: string
}

/**
 * The virtualization the DMI strings name, in systemd-detect-virt's words; undefined when they
 * name none (physical machines and unknown vendors alike).
 */
export function virtualizationFromDmi(vendor = '', product = ''): string | undefined {
  const v = vendor.toLowerCase()
  const p = product.toLowerCase()
  if (v.includes('qemu') || p.includes('kvm')) return p.includes('kvm') ? 'kvm' : 'qemu'
  if (v.includes('vmware')) return 'vmware'
  if (v.includes('microsoft') && p.includes('virtual machine')) return 'microsoft'
  if (v.includes('xen')) return 'xen'
  if (v.includes('innotek') || p.includes('virtualbox')) return 'oracle'
  if (v.includes('parallels')) return 'parallels'
  if (v.includes('bochs')) return 'bochs'
  if (v.includes('amazon ec2')) return 'amazon'
  if (v.includes('google') && p.includes('google compute engine')) return 'google'
  return undefined
}

function isX86(arch: string | undefined): boolean {
  return arch !== undefined && /^(x86_64|amd64|i[3-6]86)$/.test(arch)
}

/** systemd-detect-virt, else virt-what, else DMI, else /sys/hypervisor, else the cpu flag. */
export function decideVirtualization(f: VirtFacts, arch: string | undefined): VirtDecision {
  const container = f.container && f.container !== 'none' ? { container: f.container } : {}
  const fromDmi = virtualizationFromDmi(f.dmiVendor, f.dmiProduct)
  if (f.systemd) return { virtualization: f.systemd, source: 'systemd-detect-virt', ...container }
  if (f.virtWhat) return { virtualization: f.virtWhat.split(' ')[0] ?? f.virtWhat, source: 'virt-what', ...container }
  if (fromDmi) return { virtualization: fromDmi, source: 'dmi', ...container }
  if (f.hypervisorType) return { virtualization: f.hypervisorType, source: 'sysfs', ...container }
  // the CPUID "hypervisor" bit, which every mainstream hypervisor sets for its x86 guests
  if (f.hypervisorFlag === 'yes') return { virtualization: 'vm-other', source: 'cpuinfo', ...container }
  if (f.hypervisorFlag === 'no' && isX86(arch)) return { virtualization: 'none', source: 'cpuinfo', ...container }
  return container
}
