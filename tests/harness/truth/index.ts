/**
 * Known-truth targets: real sshd whose CPU, disk and network speed the test sets (cgroups, a loop
 * device, a network namespace with tc), so a test can check that VirtBench reports the truth.
 * The truth comes from the limit set, never from an idle machine. See docs/known-truth.md.
 */
export { cgroupLayout, cpuWrites, ioWrites, machineCgroupLayout, parseIoBytes, quotaMicros, type CgroupWrite, type CpuLimit, type IoLimit, type TruthCgroup } from './cgroup'
export { startTruthLab, PEER_NAME, type TruthLab, type TruthTargetSpec } from './lab'
export { removeLeftovers } from './leftovers'
export { inventoryTarget, startLimitedSshd, type DiskLimit, type LimitedSshdOptions, type LimitedTarget, type TruthLimits } from './limited-sshd'
export { burstBytesFor, tbfArgs, type NetworkLimit } from './netns'
export { ddBytesPerSecond, iperf3ReceivedBitsPerSecond, measureCpu, measureDd, measureNetwork, percentOf, runOn, startIperf3Server, sysbenchEventsPerSecond, type DdRun, type Iperf3Run } from './measure'
