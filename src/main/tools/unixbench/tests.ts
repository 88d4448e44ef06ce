/**
 * UnixBench's tests, from the $testParams table of its Run script (BYTE UNIX Benchmarks 5.1 and
 * 6.0): the id Run takes on its command line, the name its report prints, the unit its program
 * reports (COUNT2 of the program's output), and how long one pass takes.
 */
export interface UnixbenchTest {
  /** Run's own test name, also the metric name part: `unixbench.<id>`. */
  id: string
  /** The name printed in the report (`logmsg`); the C compiler test's name ends with the compiler. */
  name: string | RegExp
  /** The score unit the report prints after the number. */
  reportUnit: 'lps' | 'lpm' | 'MWIPS' | 'KBps' | 'fps' | 'score'
  category: 'system' | 'misc' | '2d' | '3d'
  /** Run repeats 'long' tests 10 times (or -i), 'short' ones 3 times (or (-i + 1) / 3). */
  repeat: 'long' | 'short'
  /** Seconds one pass runs, about (file tests also write and read for 2 s each before copying). */
  seconds: number
  /** What it measures, for the metric description. */
  about: string
}

const t = (
  id: string,
  name: string | RegExp,
  reportUnit: UnixbenchTest['reportUnit'],
  category: UnixbenchTest['category'],
  repeat: UnixbenchTest['repeat'],
  seconds: number,
  about: string
): UnixbenchTest => ({ id, name, reportUnit, category, repeat, seconds, about })

export const UNIXBENCH_TESTS: readonly UnixbenchTest[] = [
  t('dhry2reg', 'Dhrystone 2 using register variables', 'lps', 'system', 'long', 10, 'integer and string CPU work (Dhrystone 2 loops)'),
  t('whetstone-double', 'Double-Precision Whetstone', 'MWIPS', 'system', 'long', 10, 'floating-point CPU work (the Whetstone benchmark in double precision)'),
  t('syscall', 'System Call Overhead', 'lps', 'system', 'long', 10, 'cheap system calls (dup, close, getpid, getuid, umask) per second'),
  t('pipe', 'Pipe Throughput', 'lps', 'system', 'long', 10, 'writes and reads of 512 bytes through a pipe in one process'),
  t('context1', 'Pipe-based Context Switching', 'lps', 'system', 'long', 10, 'two processes passing an increasing number back and forth through pipes'),
  t('spawn', 'Process Creation', 'lps', 'system', 'short', 30, 'fork and wait of a child that exits at once'),
  t('execl', 'Execl Throughput', 'lps', 'system', 'short', 30, 'replacing the process with execl()'),
  t('fstime-w', 'File Write 1024 bufsize 2000 maxblocks', 'KBps', 'system', 'short', 30, 'writing a file of up to 2000 KiB in 1 KiB buffers'),
  t('fstime-r', 'File Read 1024 bufsize 2000 maxblocks', 'KBps', 'system', 'short', 30, 'reading a file of up to 2000 KiB in 1 KiB buffers'),
  t('fstime', 'File Copy 1024 bufsize 2000 maxblocks', 'KBps', 'system', 'short', 34, 'copying a file of up to 2000 KiB in 1 KiB buffers'),
  t('fsbuffer-w', 'File Write 256 bufsize 500 maxblocks', 'KBps', 'system', 'short', 30, 'writing a file of up to 500 KiB in 256-byte buffers'),
  t('fsbuffer-r', 'File Read 256 bufsize 500 maxblocks', 'KBps', 'system', 'short', 30, 'reading a file of up to 500 KiB in 256-byte buffers'),
  t('fsbuffer', 'File Copy 256 bufsize 500 maxblocks', 'KBps', 'system', 'short', 34, 'copying a file of up to 500 KiB in 256-byte buffers'),
  t('fsdisk-w', 'File Write 4096 bufsize 8000 maxblocks', 'KBps', 'system', 'short', 30, 'writing a file of up to 8000 KiB in 4 KiB buffers'),
  t('fsdisk-r', 'File Read 4096 bufsize 8000 maxblocks', 'KBps', 'system', 'short', 30, 'reading a file of up to 8000 KiB in 4 KiB buffers'),
  t('fsdisk', 'File Copy 4096 bufsize 8000 maxblocks', 'KBps', 'system', 'short', 34, 'copying a file of up to 8000 KiB in 4 KiB buffers'),
  t('shell1', 'Shell Scripts (1 concurrent)', 'lpm', 'system', 'short', 60, 'a shell script of text utilities (sort, od, grep, tee, wc) run one at a time'),
  t('shell8', 'Shell Scripts (8 concurrent)', 'lpm', 'system', 'short', 60, 'the same shell script, 8 copies at a time'),
  t('shell16', 'Shell Scripts (16 concurrent)', 'lpm', 'system', 'short', 60, 'the same shell script, 16 copies at a time'),
  t('C', /^C Compiler Throughput \(.+\)$/, 'lpm', 'misc', 'short', 60, 'compiling a small C file'),
  t('arithoh', 'Arithoh', 'lps', 'misc', 'short', 10, 'an empty arithmetic loop (the overhead the arithmetic tests include)'),
  t('short', 'Arithmetic Test (short)', 'lps', 'misc', 'short', 10, 'arithmetic on short integers'),
  t('int', 'Arithmetic Test (int)', 'lps', 'misc', 'short', 10, 'arithmetic on int'),
  t('long', 'Arithmetic Test (long)', 'lps', 'misc', 'short', 10, 'arithmetic on long integers'),
  t('float', 'Arithmetic Test (float)', 'lps', 'misc', 'short', 10, 'arithmetic on float'),
  t('double', 'Arithmetic Test (double)', 'lps', 'misc', 'short', 10, 'arithmetic on double'),
  t('dc', 'Dc: sqrt(2) to 99 decimal places', 'lpm', 'misc', 'short', 30, 'dc computing the square root of 2 to 99 places'),
  t('hanoi', 'Recursion Test -- Tower of Hanoi', 'lps', 'misc', 'short', 20, 'recursive function calls (Tower of Hanoi)'),
  t('grep', "Grep a large file (system's grep)", 'lpm', 'misc', 'short', 30, 'the system grep counting matches in a large file'),
  t('sysexec', 'Exec System Call Overhead', 'lps', 'misc', 'long', 10, 'exec system calls'),
  t('2d-rects', '2D graphics: rectangles', 'score', '2d', 'short', 3, 'X11 rectangle drawing'),
  t('2d-lines', '2D graphics: lines', 'score', '2d', 'short', 3, 'X11 line drawing'),
  t('2d-circle', '2D graphics: circles', 'score', '2d', 'short', 3, 'X11 circle drawing'),
  t('2d-ellipse', '2D graphics: ellipses', 'score', '2d', 'short', 3, 'X11 ellipse drawing'),
  t('2d-shapes', '2D graphics: polygons', 'score', '2d', 'short', 3, 'X11 polygon drawing'),
  t('2d-aashapes', '2D graphics: aa polygons', 'score', '2d', 'short', 3, 'X11 anti-aliased polygon drawing'),
  t('2d-polys', '2D graphics: complex polygons', 'score', '2d', 'short', 3, 'X11 complex polygon drawing'),
  t('2d-text', '2D graphics: text', 'score', '2d', 'short', 3, 'X11 text drawing'),
  t('2d-blit', '2D graphics: images and blits', 'score', '2d', 'short', 3, 'X11 image copies'),
  t('2d-window', '2D graphics: windows', 'score', '2d', 'short', 3, 'X11 window operations'),
  t('ubgears', '3D graphics: gears', 'fps', '3d', 'short', 20, 'OpenGL gears frames per second')
]

/** Tests with a baseline in UnixBench's pgms/index.base: the report gives each of them an index. */
export const BASELINED_TESTS: ReadonlySet<string> = new Set([
  'dhry2reg', 'whetstone-double', 'execl', 'fstime', 'fsbuffer', 'fsdisk', 'pipe', 'context1', 'spawn', 'shell8', 'syscall', 'shell1',
  '2d-rects', '2d-ellipse', '2d-aashapes', '2d-text', '2d-blit', '2d-window', 'ubgears', 'grep', 'sysexec'
])

/** Run's named groups of tests (its $testList), so a plan can be estimated and checked. */
const ARITHMETIC = ['arithoh', 'short', 'int', 'long', 'float', 'double', 'whetstone-double']
const FS = ['fstime-w', 'fstime-r', 'fstime', 'fsbuffer-w', 'fsbuffer-r', 'fsbuffer', 'fsdisk-w', 'fsdisk-r', 'fsdisk']
const OLD_SYSTEM = ['execl', 'fstime', 'fsbuffer', 'fsdisk', 'pipe', 'context1', 'spawn', 'syscall']
const SYSTEM = [...OLD_SYSTEM, 'shell1', 'shell8', 'shell16']
/** The tests of the System Benchmarks Index, which `./Run` runs when no test is named. */
export const INDEX_TESTS = ['dhry2reg', 'whetstone-double', ...OLD_SYSTEM, 'shell1', 'shell8']
const GRAPHICS = ['2d-rects', '2d-ellipse', '2d-aashapes', '2d-text', '2d-blit', '2d-window', 'ubgears']

export const TEST_GROUPS: Readonly<Record<string, readonly string[]>> = {
  arithmetic: ARITHMETIC,
  dhry: ['dhry2reg'],
  dhrystone: ['dhry2reg'],
  whets: ['whetstone-double'],
  whetstone: ['whetstone-double'],
  load: ['shell1', 'shell8', 'shell16'],
  misc: ['C', 'dc', 'hanoi'],
  speed: [...ARITHMETIC, ...SYSTEM],
  oldsystem: OLD_SYSTEM,
  system: SYSTEM,
  fs: FS,
  shell: ['shell1', 'shell8', 'shell16'],
  graphics: GRAPHICS,
  index: INDEX_TESTS,
  gindex: [...INDEX_TESTS, ...GRAPHICS]
}

/** Every word Run takes as a test: a test id or a group name. */
export const RUN_TEST_WORDS: readonly string[] = [...UNIXBENCH_TESTS.map((x) => x.id), ...Object.keys(TEST_GROUPS)]

/** The tests a list of Run words stands for, in order, repeats kept (Run runs a test once per mention). */
export function expandTests(words: readonly string[]): string[] {
  return words.flatMap((w) => TEST_GROUPS[w] ?? [w])
}

export function testByName(name: string): UnixbenchTest | undefined {
  return UNIXBENCH_TESTS.find((x) => (typeof x.name === 'string' ? x.name === name : x.name.test(name)))
}
