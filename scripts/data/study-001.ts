/**
 * Study 001's published local storage figures (/work/shared/seeds/001_ff534fec0fc2706a.txt,
 * "Local Storage IO Testing", "Test Results"), verbatim, and the "(relative %)" rows it printed
 * under them. The example comparison (scripts/example-run.ts) is built from these figures, and
 * its test checks that compare() gives the study's percentages back.
 */

export const STUDY_001 = {
  title: 'Study 001: Cloud platform acceptance test (CPU, memory, local disk, Ceph, network)',
  citation: 'VirtBench source study 001 (001_ff534fec0fc2706a.txt), "Local Storage IO Testing", table "Test Results": fio on a Dell PowerEdge R730xd (CentOS 7.9, RAID 10 of mechanical disks) and its Linux (CentOS 7.6) and Windows Server 2008 R2 guests',
  /** The study's fio jobs: posixaio, O_DIRECT, 60 s time-based, iodepth 16 (4k) or 1 (1m), end_fsync on writes. */
  method:
    'fio --ioengine=posixaio --direct=1 --runtime=60 --time_based --numjobs=1; 4k jobs at iodepth 16 on a 4 GiB file, 1m jobs at iodepth 1 on a 16 GiB file; --end_fsync=1 on writes; each job run once per machine'
} as const

/** The six fio jobs of the table, by the test ids of the cloud-acceptance pack, with the direction fio reports. */
export const FIO_TESTS = [
  { id: 'fio-4k-randread', dir: 'read' },
  { id: 'fio-4k-randwrite', dir: 'write' },
  { id: 'fio-4k-read', dir: 'read' },
  { id: 'fio-4k-write', dir: 'write' },
  { id: 'fio-1m-read', dir: 'read' },
  { id: 'fio-1m-write', dir: 'write' }
] as const

export type FioTestId = (typeof FIO_TESTS)[number]['id']

/** The baseline, as the study names it. */
export const PHYSICAL = 'Physical Machine'

export interface Study001Side {
  /** As the study's table names the row ("Linux Virtual Machine" and "(cache=none)" on the next line). */
  name: string
  guest?: { os: string; cache: 'none' | 'writeback'; queues?: number }
  /** IOPS then throughput for each of the six jobs, as printed ("22.1k", "782KiB/s", "23.8MiB/s"). */
  figures: string[]
}

const LINUX = 'CentOS Linux 7.6.1810'
const WINDOWS = 'Windows Server 2008 R2 Datacenter'

export const LOCAL_STORAGE: Study001Side[] = [
  { name: PHYSICAL, figures: ['195', '782KiB/s', '7349', '28.7MiB/s', '22.1k', '86.3MiB/s', '24.5k', '95.8MiB/s', '1055', '1056MiB/s', '1117', '1118MiB/s'] },
  {
    name: 'Linux Virtual Machine (cache=none)',
    guest: { os: LINUX, cache: 'none' },
    figures: ['245', '981KiB/s', '6096', '23.8MiB/s', '9458', '36.9MiB/s', '6278', '24.5MiB/s', '979', '980MiB/s', '1058', '1059MiB/s']
  },
  {
    name: 'Linux Virtual Machine (cache=none,queues=4)',
    guest: { os: LINUX, cache: 'none', queues: 4 },
    figures: ['243', '973KiB/s', '7483', '29.2MiB/s', '11.5k', '44.9MiB/s', '7271', '28.4MiB/s', '958', '959MiB/s', '1052', '1052MiB/s']
  },
  {
    name: 'Linux Virtual Machine (cache=writeback)',
    guest: { os: LINUX, cache: 'writeback' },
    figures: ['13.0k', '54.5MiB/s', '8360', '32.7MiB/s', '13.1k', '51.3MiB/s', '8976', '35.1MiB/s', '2550', '2551MiB/s', '1045', '1046MiB/s']
  },
  {
    name: 'Linux Virtual Machine (cache=writeback,queues=4)',
    guest: { os: LINUX, cache: 'writeback', queues: 4 },
    figures: ['28.7k', '112MiB/s', '12.2k', '47.5MiB/s', '29.6k', '116MiB/s', '11.2k', '43.8MiB/s', '2931', '2932MiB/s', '1220', '1220MiB/s']
  },
  {
    name: 'Windows Virtual Machine (cache=none)',
    guest: { os: WINDOWS, cache: 'none' },
    figures: ['2811', '11.0MiB/s', '6002', '23.4MiB/s', '11.8k', '46.1MiB/s', '4289', '16.8MiB/s', '1009', '1009MiB/s', '685', '686MiB/s']
  },
  {
    name: 'Windows Virtual Machine (cache=none,queues=4)',
    guest: { os: WINDOWS, cache: 'none', queues: 4 },
    figures: ['2794', '10.9MiB/s', '7448', '29.1MiB/s', '21.1k', '82.6MiB/s', '25.5k', '99.7MiB/s', '930', '930MiB/s', '1013', '1014MiB/s']
  },
  {
    name: 'Windows Virtual Machine (cache=writeback)',
    guest: { os: WINDOWS, cache: 'writeback' },
    figures: ['2483', '9935KiB/s', '7430', '29.0MiB/s', '10.9k', '42.8MiB/s', '13.6k', '53.0MiB/s', '1993', '1994MiB/s', '920', '920MiB/s']
  },
  {
    name: 'Windows Virtual Machine (cache=writeback,queues=4)',
    guest: { os: WINDOWS, cache: 'writeback', queues: 4 },
    figures: ['4520', '17.7MiB/s', '18.8k', '73.6MiB/s', '23.3k', '90.8MiB/s', '21.8k', '85.1MiB/s', '2628', '2628MiB/s', '1191', '1192MiB/s']
  }
]

/**
 * The "(relative %)" rows, verbatim (IOPS then throughput per job), except the entries the
 * study's own printed figures cannot give (null), for reasons in the study, not in the arithmetic:
 * - 4k random read throughput where the guest is in MiB/s and the host in KiB/s (6969, 14322,
 *   1407, 1394, 2263 %): the study took 1 MiB as 1000 KiB (54.5 x 1000 / 782 = 6969 %); with
 *   1 MiB = 1024 KiB it is 7137 %.
 * - Windows 4k random read IOPS 2811, 2794 and 4520 vs 195 (published 1441, 1432, 2317 %): the
 *   printed IOPS are rounded and the study divided the unrounded ones; the printed figures give
 *   1441.5, 1432.8 and 2317.9 %, which round one higher.
 * - Windows writeback,queues=4 1 MiB write 1191 vs 1117 and 1192 vs 1118 (published 106 %): the
 *   printed figures give 106.6 %.
 * The Windows writeback,queues=4 4k random write is printed "2558%" and "2564%": the decimal point
 * was lost (18.8k / 7349 = 255.8 %, 73.6 / 28.7 = 256.4 %), so those two are given to one decimal.
 */
export const PUBLISHED_RELATIVE: Record<string, (number | null | { oneDecimal: number })[]> = {
  'Linux Virtual Machine (cache=none)': [126, 125, 83, 83, 43, 43, 26, 26, 93, 93, 95, 95],
  'Linux Virtual Machine (cache=none,queues=4)': [125, 124, 102, 102, 52, 52, 30, 30, 91, 91, 94, 94],
  'Linux Virtual Machine (cache=writeback)': [6667, null, 114, 114, 59, 59, 37, 37, 242, 242, 94, 94],
  'Linux Virtual Machine (cache=writeback,queues=4)': [14718, null, 166, 166, 134, 134, 46, 46, 278, 278, 109, 109],
  'Windows Virtual Machine (cache=none)': [null, null, 82, 82, 53, 53, 18, 18, 96, 96, 61, 61],
  'Windows Virtual Machine (cache=none,queues=4)': [null, null, 101, 101, 95, 96, 104, 104, 88, 88, 91, 91],
  'Windows Virtual Machine (cache=writeback)': [1273, 1270, 101, 101, 49, 50, 56, 55, 189, 189, 82, 82],
  'Windows Virtual Machine (cache=writeback,queues=4)': [null, null, { oneDecimal: 255.8 }, { oneDecimal: 256.4 }, 105, 105, 89, 89, 249, 249, null, null]
}

/** A figure as the study prints it ("22.1k", "981KiB/s", "23.8MiB/s") in base units (op/s, B/s). */
export function studyFigure(text: string): number {
  const match = /^([\d.]+)(k|KiB\/s|MiB\/s)?$/.exec(text)
  if (!match?.[1]) throw new Error(`not a figure of study 001: ${text}`)
  const scale = { k: 1000, 'KiB/s': 1024, 'MiB/s': 1024 * 1024 }[match[2] ?? ''] ?? 1
  // digits times the scale, then the decimals: 22.1k is 22100 exactly, not 22100.000000000004
  const [whole = '', decimals = ''] = match[1].split('.')
  return (Number(whole + decimals) * scale) / 10 ** decimals.length
}
