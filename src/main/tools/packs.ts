import { PACK_IDS, type Aggregate, type PackId, type ToolId } from '../../shared/model/tool-ids'

/**
 * Packs: named sets of tests taken from the studies in the project's seeds, with the studies'
 * exact parameters. Each has a full form (as the study ran it) and a quick form (the same tools
 * and shapes at small sizes and a few seconds per test) for trying a setup, and for the tests.
 *
 * Params are the tools' own parameter objects; `packs.test.ts` checks each against its tool's
 * schema and the exact command it plans.
 */

export { PACK_IDS, type PackId, type Aggregate }

export interface PackTest {
  /** Stable within the pack: 'fio-4k-randread'. */
  id: string
  /** For people: '4 KiB random read'. */
  title: string
  tool: ToolId
  params: Record<string, unknown>
  /** Runs of this test per target (default 1). */
  repetitions?: number
  /** How repetitions are summarized (default 'mean'); study 001 takes the best of three iperf3 runs. */
  aggregate?: Aggregate
}

export interface Pack {
  id: PackId
  name: string
  /** The study it reproduces (file in the seeds and its title). */
  study: string
  description: string
  tests: PackTest[]
  quick: PackTest[]
}

export type PackForm = 'full' | 'quick'

// ---------------------------------------------------------------------------------------------
// The everyday set: one test of each kind an admin reaches for first

const everydayFio = (id: string, title: string, rw: string, size: string, runtime: number): PackTest => ({
  id,
  title,
  tool: 'fio',
  params: { name: id, ioengine: 'auto', rw, bs: '4k', size, numjobs: 1, iodepth: 16, runtime, timeBased: true, direct: true }
})

const everyday: Pack = {
  id: 'everyday',
  name: 'Everyday quick check',
  study: 'all five: the first test of each kind the studies ran (dd from 002, fio, iperf3 and sysbench from 001, ping from 000)',
  description:
    'One figure per kind, about two minutes per target at three repetitions: dd throughput (one 256 MiB O_DIRECT write) and latency (1000 x 512 B O_DIRECT writes), fio 4 KiB random read and write (iodepth 16, O_DIRECT, 5 s each), iperf3 TCP for 5 s and ping -c 10 to the peer, and sysbench CPU (primes, one thread, 5 s). The quick form is the same at 64 MiB and 3 s.',
  tests: [
    { id: 'dd-throughput', title: 'dd: 256 MiB O_DIRECT write', tool: 'dd', params: { mode: 'write', blockSize: '256M', count: '1', direct: true } },
    { id: 'dd-latency', title: 'dd: 1000 x 512 B O_DIRECT writes', tool: 'dd', params: { mode: 'write', blockSize: '512', count: '1000', direct: true } },
    everydayFio('fio-4k-randread', 'fio: 4 KiB random read, 5 s', 'randread', '256m', 5),
    everydayFio('fio-4k-randwrite', 'fio: 4 KiB random write, 5 s', 'randwrite', '256m', 5),
    { id: 'iperf3', title: 'iperf3: TCP for 5 s', tool: 'iperf3', params: { seconds: 5 } },
    { id: 'ping', title: 'ping -c 10 (every 0.2 s)', tool: 'ping', params: { count: 10, intervalSeconds: 0.2 } },
    { id: 'sysbench-cpu', title: 'sysbench CPU: primes, 1 thread, 5 s', tool: 'sysbench', params: { test: 'cpu', timeSeconds: 5 } }
  ],
  quick: [
    { id: 'dd-throughput', title: 'dd: 64 MiB O_DIRECT write', tool: 'dd', params: { mode: 'write', blockSize: '64M', count: '1', direct: true } },
    { id: 'dd-latency', title: 'dd: 200 x 512 B O_DIRECT writes', tool: 'dd', params: { mode: 'write', blockSize: '512', count: '200', direct: true } },
    everydayFio('fio-4k-randread', 'fio: 4 KiB random read, 3 s', 'randread', '64m', 3),
    everydayFio('fio-4k-randwrite', 'fio: 4 KiB random write, 3 s', 'randwrite', '64m', 3),
    { id: 'iperf3', title: 'iperf3: TCP for 3 s', tool: 'iperf3', params: { seconds: 3 } },
    { id: 'ping', title: 'ping -c 5 (every 0.2 s)', tool: 'ping', params: { count: 5, intervalSeconds: 0.2 } },
    { id: 'sysbench-cpu', title: 'sysbench CPU: primes, 1 thread, 3 s', tool: 'sysbench', params: { test: 'cpu', timeSeconds: 3 } }
  ]
}

// ---------------------------------------------------------------------------------------------
// Study 001: cloud platform acceptance test

const fio001 = (id: string, title: string, name: string, rw: string, bs: string, size: string, iodepth: number, endFsync: boolean): PackTest => ({
  id,
  title,
  tool: 'fio',
  params: { name, ioengine: 'posixaio', rw, bs, size, numjobs: 1, iodepth, runtime: 60, timeBased: true, direct: true, endFsync }
})

const cloudAcceptance: Pack = {
  id: 'cloud-acceptance',
  name: 'Cloud acceptance',
  study: '001: Cloud platform acceptance test (CPU, memory, local disk, Ceph, network)',
  description:
    'The six fio jobs of the acceptance study (4 KiB random and sequential read and write at iodepth 16, 1 MiB sequential read and write at iodepth 1; posixaio, O_DIRECT, 60 s time-based, end_fsync on writes), UnixBench Dhrystone, Whetstone and file copy with one copy, mbw 512 MiB, and iperf3 for 30 s, best of three.',
  tests: [
    fio001('fio-4k-randread', '4 KiB random read', 'random-read', 'randread', '4k', '4g', 16, false),
    fio001('fio-4k-randwrite', '4 KiB random write', 'random-write', 'randwrite', '4k', '4g', 16, true),
    fio001('fio-4k-read', '4 KiB sequential read', 'random-read', 'read', '4k', '4g', 16, false),
    fio001('fio-4k-write', '4 KiB sequential write', 'random-write', 'write', '4k', '4g', 16, true),
    fio001('fio-1m-read', '1 MiB sequential read', 'seq-read', 'read', '1m', '16g', 1, false),
    fio001('fio-1m-write', '1 MiB sequential write', 'seq-write', 'write', '1m', '16g', 1, true),
    { id: 'unixbench', title: 'UnixBench: Dhrystone, Whetstone, file copy (1 copy)', tool: 'unixbench', params: { tests: ['whetstone-double', 'dhry2reg', 'fsdisk'], copies: [1] } },
    { id: 'mbw', title: 'Memory bandwidth (mbw 512 MiB)', tool: 'mbw', params: { sizeMiB: 512 } },
    { id: 'iperf3', title: 'TCP bandwidth (iperf3, 30 s, best of 3)', tool: 'iperf3', params: { seconds: 30 }, repetitions: 3, aggregate: 'best' }
  ],
  quick: (
    [
    fio001('fio-4k-randread', '4 KiB random read', 'random-read', 'randread', '4k', '64m', 16, false),
    fio001('fio-4k-randwrite', '4 KiB random write', 'random-write', 'randwrite', '4k', '64m', 16, true),
    fio001('fio-4k-read', '4 KiB sequential read', 'random-read', 'read', '4k', '64m', 16, false),
    fio001('fio-4k-write', '4 KiB sequential write', 'random-write', 'write', '4k', '64m', 16, true),
    fio001('fio-1m-read', '1 MiB sequential read', 'seq-read', 'read', '1m', '64m', 1, false),
    fio001('fio-1m-write', '1 MiB sequential write', 'seq-write', 'write', '1m', '64m', 1, true),
    { id: 'unixbench', title: 'UnixBench: Dhrystone, Whetstone, file copy (1 copy, 1 pass)', tool: 'unixbench', params: { tests: ['whetstone-double', 'dhry2reg', 'fsdisk'], copies: [1], iterations: 1 } },
    { id: 'mbw', title: 'Memory bandwidth (mbw 64 MiB)', tool: 'mbw', params: { sizeMiB: 64, iterations: 3 } },
    { id: 'iperf3', title: 'TCP bandwidth (iperf3, 3 s, best of 3)', tool: 'iperf3', params: { seconds: 3 }, repetitions: 3, aggregate: 'best' }
    ] satisfies PackTest[]
  ).map((t) => (t.tool === 'fio' ? { ...t, params: { ...t.params, runtime: 3 } } : t))
}

// ---------------------------------------------------------------------------------------------
// Study 002: virtual block device performance (dd)

const blockDd: Pack = {
  id: 'block-dd',
  name: 'Block device dd',
  study: '002: Virtual block device performance (Xen PV/HVM, KVM IDE/virtio vs a chroot baseline)',
  description:
    'Throughput: one 1 GiB write with O_DIRECT (dd bs=1G count=1 oflag=direct). Latency: 1000 writes of 512 bytes with O_DIRECT (dd bs=512 count=1000 oflag=direct). On a file in the work directory, or on a raw device you name and confirm (its data is destroyed).',
  tests: [
    { id: 'dd-throughput', title: 'Throughput: 1 GiB O_DIRECT write', tool: 'dd', params: { mode: 'write', blockSize: '1G', count: '1', direct: true } },
    { id: 'dd-latency', title: 'Latency: 1000 x 512 B O_DIRECT writes', tool: 'dd', params: { mode: 'write', blockSize: '512', count: '1000', direct: true } }
  ],
  quick: [
    { id: 'dd-throughput', title: 'Throughput: 64 MiB O_DIRECT write', tool: 'dd', params: { mode: 'write', blockSize: '64M', count: '1', direct: true } },
    { id: 'dd-latency', title: 'Latency: 200 x 512 B O_DIRECT writes', tool: 'dd', params: { mode: 'write', blockSize: '512', count: '200', direct: true } }
  ]
}

// ---------------------------------------------------------------------------------------------
// Study 003: virtualization cluster baseline (one fio job file)

const clusterJob = { style: 'job-file', name: 'virt', ioengine: 'libaio', iodepth: 4, rw: 'randrw', bs: '64k', direct: true, size: '1g', numjobs: 4, runtime: null, timeBased: false }

const clusterFio: Pack = {
  id: 'cluster-fio',
  name: 'Cluster fio job',
  study: '003: Virtualization cluster baseline (RAID1 HDD vs SSD vs NFS vs a VM)',
  description:
    'The study\'s fio job file, shaped like four qemu processes: [virt] ioengine=libaio iodepth=4 rw=randrw bs=64k direct=1 size=1g numjobs=4, each job moving its 1 GiB.',
  tests: [{ id: 'fio-virt', title: 'fio [virt]: 4 jobs, 64 KiB random read/write, iodepth 4', tool: 'fio', params: clusterJob }],
  quick: [{ id: 'fio-virt', title: 'fio [virt]: 4 jobs x 16 MiB, 64 KiB random read/write, iodepth 4', tool: 'fio', params: { ...clusterJob, size: '16m' } }]
}

// ---------------------------------------------------------------------------------------------
// Study 004: Hyper-V vs VMware, sequential dd and cat

const seqDd: Pack = {
  id: 'seq-dd',
  name: 'Sequential dd / cat',
  study: '004: CentOS on Hyper-V vs VMware, same hardware',
  description:
    'Sequential write and read through the page cache, timed by the shell as in the study: time sh -c "dd if=/dev/zero of=ddfile2 bs=8k count=1M" (8 GiB), then time sh -c "cat ddfile2 > /dev/null". The study read an older file named ddfile; VirtBench reads the file it just wrote.',
  tests: [
    { id: 'dd-write', title: 'Write 8 GiB with dd bs=8k', tool: 'dd', params: { mode: 'write', blockSize: '8k', count: '1M', direct: false, fileName: 'ddfile2', timer: 'bash' } },
    { id: 'cat-read', title: 'Read it back with cat', tool: 'dd', params: { mode: 'read', reader: 'cat', direct: false, fileName: 'ddfile2', timer: 'bash', useExistingFile: true } }
  ],
  quick: [
    { id: 'dd-write', title: 'Write 64 MiB with dd bs=8k', tool: 'dd', params: { mode: 'write', blockSize: '8k', count: '8192', direct: false, fileName: 'ddfile2', timer: 'bash' } },
    { id: 'cat-read', title: 'Read it back with cat', tool: 'dd', params: { mode: 'read', reader: 'cat', direct: false, fileName: 'ddfile2', timer: 'bash', useExistingFile: true } }
  ]
}

// ---------------------------------------------------------------------------------------------
// Study 000: KVM physical vs file-backed vs LVM-backed guests

const kvmStorage: Pack = {
  id: 'kvm-storage',
  name: 'KVM storage study',
  study: '000: KVM physical vs file-backed VM vs LVM-backed VM (virtio disk and NIC)',
  description:
    'bonnie++ -s 50g -n 10 -x 10 (ten runs, averaged), iozone -Raz -g 50G -b out.wks (13 sub-tests over file size x record size), iperf -r both directions over TCP and UDP, and ping -c 10 to the peer.',
  tests: [
    { id: 'bonnie', title: 'bonnie++ 50 GiB, 10 x 1024 files, 10 runs', tool: 'bonnie', params: { fileSize: '50g', numFiles: 10, repetitions: 10 } },
    { id: 'iozone', title: 'iozone -Raz up to 50 GiB files', tool: 'iozone', params: { maxFileSize: '50G', allRecordSizes: true, spreadsheet: 'out.wks' } },
    { id: 'iperf-tcp', title: 'iperf -r: TCP both directions', tool: 'iperf', params: { protocol: 'tcp', direction: 'both' } },
    { id: 'iperf-udp', title: 'iperf -u -r: UDP both directions', tool: 'iperf', params: { protocol: 'udp', direction: 'both' } },
    { id: 'ping', title: 'ping -c 10', tool: 'ping', params: { count: 10 } }
  ],
  quick: [
    { id: 'bonnie', title: 'bonnie++ 64 MiB, 2 runs', tool: 'bonnie', params: { fileSize: '64', ramMiB: 32, numFiles: 1, repetitions: 2 } },
    { id: 'iozone', title: 'iozone -Raz up to 4 MiB files', tool: 'iozone', params: { maxFileSize: '4M', allRecordSizes: true } },
    { id: 'iperf-tcp', title: 'iperf -r: TCP both directions, 2 s each', tool: 'iperf', params: { protocol: 'tcp', direction: 'both', seconds: 2 } },
    { id: 'iperf-udp', title: 'iperf -u -r: UDP both directions, 2 s each', tool: 'iperf', params: { protocol: 'udp', direction: 'both', seconds: 2 } },
    { id: 'ping', title: 'ping -c 5', tool: 'ping', params: { count: 5, intervalSeconds: 0.2 } }
  ]
}

export const PACKS: Readonly<Record<PackId, Pack>> = {
  everyday,
  'cloud-acceptance': cloudAcceptance,
  'block-dd': blockDd,
  'cluster-fio': clusterFio,
  'seq-dd': seqDd,
  'kvm-storage': kvmStorage
}

export function isPackId(value: string): value is PackId {
  return (PACK_IDS as readonly string[]).includes(value)
}

export function packTests(pack: Pack, form: PackForm): PackTest[] {
  return form === 'quick' ? pack.quick : pack.tests
}
